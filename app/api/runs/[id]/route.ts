import { recordAudit } from "@/lib/persistence/audit-store";
import { deleteRun } from "@/lib/persistence/run-deletion";
import { getRunDetail } from "@/lib/persistence/run-queries";
import { clientAddress } from "@/lib/server/access/principal";
import { runAsSeenBy } from "@/lib/server/access/run-view";
import { json, pathId, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

/** The run with its status, per-node states and outputs, and its approvals. */
export const GET = route("GET /api/runs/[id]", async (_request, { params }: { params: Promise<{ id: string }> }, principal) => {
  const { database } = await startStudio();
  const id = pathId((await params).id, "run");
  return json({ run: await runAsSeenBy(principal, await getRunDetail(id, database), database) });
});

/**
 * Deletes a finished run with everything of it (lib/persistence/run-deletion.ts): 409 while it, or a run it called, is
 * running or waiting (cancel it first), 404 when there is no such run. Recorded in the security log, since a run's
 * record (what ran, who approved it) is gone for good.
 */
export const DELETE = route("DELETE /api/runs/[id]", async (request, { params }: { params: Promise<{ id: string }> }, principal) => {
  const studio = await startStudio();
  const id = pathId((await params).id, "run");
  const deleted = await deleteRun(id, studio.database);
  await recordAudit(
    {
      actor: principal.person,
      actorId: principal.personId,
      action: "run-deleted",
      target: deleted.id,
      detail: { workflow: deleted.workflowName, workflowId: deleted.workflowId, runsDeleted: deleted.runsDeleted },
      clientAddress: clientAddress(request),
    },
    studio.database,
  );
  return json({ deleted });
});
