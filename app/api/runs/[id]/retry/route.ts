import { starterOf } from "@/lib/server/access/principal";
import { json, pathId, route } from "@/lib/server/http";
import { retryFromFailure } from "@/lib/server/reruns";

export const dynamic = "force-dynamic";

/**
 * Retries a failed or cancelled run from its failed step: a new run of the same version and inputs that keeps
 * what succeeded and runs the rest (201 with it). 409 while the run has not finished, or when it succeeded.
 */
export const POST = route("POST /api/runs/[id]/retry", async (_request, { params }: { params: Promise<{ id: string }> }, principal) => {
  const id = pathId((await params).id, "run");
  return json({ run: await retryFromFailure(id, starterOf(principal)) }, 201);
});
