import { PinsFromRunBodySchema } from "@/lib/contracts/pins";
import { json, pathId, readBody, route } from "@/lib/server/http";
import { pinRunOutputs, workflowPins } from "@/lib/server/pins";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** The workflow's pinned outputs (test data for Run this step and Run up to here). */
export const GET = route("GET /api/workflows/[id]/pins", async (_request, { params }: Context) => {
  const id = pathId((await params).id, "workflow");
  return json({ pins: await workflowPins(id) });
});

/**
 * Copy to editor: pins the outputs of a run's succeeded steps (`{ fromRunId, nodeIds? }`), replacing those nodes' pins;
 * answers what was pinned and which steps were not (an output holding something credential-like), with why.
 */
export const POST = route("POST /api/workflows/[id]/pins", async (request, { params }: Context) => {
  const id = pathId((await params).id, "workflow");
  const body = await readBody(request, PinsFromRunBodySchema);
  return json(await pinRunOutputs(id, body));
});
