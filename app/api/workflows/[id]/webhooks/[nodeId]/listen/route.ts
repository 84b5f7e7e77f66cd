import { json, pathId, readBody, readQuery, route } from "@/lib/server/http";
import { listenForTest, listenStream, stopListening } from "@/lib/server/webhook-test-listen";
import { ListenForTestBodySchema, ListenQuerySchema } from "@/lib/validations/workflow";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string; nodeId: string }> };

async function ids(params: Params["params"]): Promise<{ workflowId: string; nodeId: string }> {
  const { id, nodeId } = await params;
  return { workflowId: pathId(id, "workflow"), nodeId: pathId(nodeId, "webhook node") };
}

/** Listens on the webhook node of a saved version at its test address (/hooks-test/…) for one delivery; 201 with the listen. */
export const POST = route("POST /api/workflows/[id]/webhooks/[nodeId]/listen", async (request, { params }: Params) => {
  const { workflowId, nodeId } = await ids(params);
  const body = await readBody(request, ListenForTestBodySchema);
  return json({ listen: await listenForTest(workflowId, nodeId, body) }, 201);
});

/** Follows a listen (Server-Sent Events): `listening`, then `captured` with the masked request and the run, `expired` or `stopped`. */
export const GET = route("GET /api/workflows/[id]/webhooks/[nodeId]/listen", async (request, { params }: Params) => {
  const { workflowId, nodeId } = await ids(params);
  const { listen } = readQuery(request, ListenQuerySchema);
  return listenStream(workflowId, nodeId, listen, request.signal);
});

/** Stops a listen that has not had its delivery. */
export const DELETE = route("DELETE /api/workflows/[id]/webhooks/[nodeId]/listen", async (request, { params }: Params) => {
  const { workflowId, nodeId } = await ids(params);
  const { listen } = readQuery(request, ListenQuerySchema);
  return json({ stopped: await stopListening(workflowId, nodeId, listen) });
});
