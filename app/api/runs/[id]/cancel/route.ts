import { getRunDetail } from "@/lib/persistence/run-queries";
import { runAsSeenBy } from "@/lib/server/access/run-view";
import { HttpError, json, pathId, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

/** Stops a run: its running tools are aborted and its pending approvals fail. 409 when it has already finished. */
export const POST = route("POST /api/runs/[id]/cancel", async (_request, { params }: { params: Promise<{ id: string }> }, principal) => {
  const studio = await startStudio();
  const id = pathId((await params).id, "run");
  const before = await getRunDetail(id);
  if (!(await studio.runs.cancel(id, principal.person))) {
    throw new HttpError(409, `The run has already finished (${before.status}); there is nothing to cancel.`);
  }
  return json({ run: await runAsSeenBy(principal, await getRunDetail(id, studio.database), studio.database) });
});
