import { PinBodySchema } from "@/lib/contracts/pins";
import { json, pathId, readBody, route } from "@/lib/server/http";
import { pinNode, unpinNode } from "@/lib/server/pins";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; nodeId: string }> };

/** Pins a node's output: `{ output: { content, data?, route? } }` as typed, or `{ fromRunId }` to pin its output in that run; 422 naming the field. */
export const PUT = route("PUT /api/workflows/[id]/pins/[nodeId]", async (request, { params }: Context) => {
  const { id, nodeId } = await params;
  // The ids first: a hostile path is a 404 whatever the body.
  const workflowId = pathId(id, "workflow");
  const node = pathId(nodeId, "node");
  const body = await readBody(request, PinBodySchema);
  return json({ pin: await pinNode(workflowId, node, body) });
});

/** Unpins a node; 404 when it had no pin. */
export const DELETE = route("DELETE /api/workflows/[id]/pins/[nodeId]", async (_request, { params }: Context) => {
  const { id, nodeId } = await params;
  await unpinNode(pathId(id, "workflow"), pathId(nodeId, "node"));
  return new Response(null, { status: 204 });
});
