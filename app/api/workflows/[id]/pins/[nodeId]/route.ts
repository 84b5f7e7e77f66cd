import { PinBodySchema } from "@/lib/contracts/pins";
import { json, pathId, readBody, route } from "@/lib/server/http";
import { pinNode, unpinNode } from "@/lib/server/pins";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; nodeId: string }> };

/** Pins a node's output: `{ output: { content, data?, route? } }` as typed, or `{ fromRunId }` to pin its output in that run; 422 naming the field. */
export const PUT = route(async (request, { params }: Context) => {
  const { id, nodeId } = await params;
  const body = await readBody(request, PinBodySchema);
  return json({ pin: await pinNode(pathId(id, "workflow"), pathId(nodeId, "node"), body) });
});

/** Unpins a node; 404 when it had no pin. */
export const DELETE = route(async (_request, { params }: Context) => {
  const { id, nodeId } = await params;
  await unpinNode(pathId(id, "workflow"), pathId(nodeId, "node"));
  return new Response(null, { status: 204 });
});
