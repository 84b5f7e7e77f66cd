import { json, pathId, readBody, route } from "@/lib/server/http";
import { startRun } from "@/lib/server/runs";
import { StartRunBodySchema } from "@/lib/validations/run";

export const dynamic = "force-dynamic";

/** Starts a run with the given inputs; 422 with every problem when the inputs or the workflow are not valid. */
export const POST = route(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const id = pathId((await params).id, "workflow");
  const body = await readBody(request, StartRunBodySchema.optional());
  return json({ run: await startRun(id, body ?? { inputs: {} }) }, 201);
});
