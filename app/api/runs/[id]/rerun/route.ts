import { starterOf } from "@/lib/server/access/principal";
import { json, pathId, readBody, route } from "@/lib/server/http";
import { runAgain } from "@/lib/server/reruns";
import { RerunBodySchema } from "@/lib/validations/run";

export const dynamic = "force-dynamic";

/**
 * Runs a finished run again from the start with the same inputs, on the version it ran or the workflow's newest
 * (body `{ "version": "same" | "latest" }`; 422 naming the field otherwise); 201 with the new run, 409 while it runs.
 */
export const POST = route("POST /api/runs/[id]/rerun", async (request, { params }: { params: Promise<{ id: string }> }, principal) => {
  const id = pathId((await params).id, "run");
  const body = await readBody(request, RerunBodySchema);
  return json({ run: await runAgain(id, body, starterOf(principal)) }, 201);
});
