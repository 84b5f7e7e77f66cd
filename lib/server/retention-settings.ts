import type { RetentionOverview, RetentionPolicy } from "@/lib/contracts/retention";
import { recordAudit } from "@/lib/persistence/audit-store";
import { NotFoundError } from "@/lib/persistence";
import { clearWorkflowRetention, countPrunable, databaseBytes, listWorkflowRetention, readStudioRetention, saveRetention, spaceNote } from "@/lib/persistence/run-retention";
import { clientAddress, type Principal } from "./access/principal";
import { startStudio } from "./studio";

/**
 * The retention settings' routes (app/api/settings/retention, app/api/workflows/{id}/retention): read them with
 * what they would do, change them (recorded in the security log, since a setting removes run history for good),
 * and have the change applied soon rather than at the next hourly pass.
 */

export async function retentionOverview(): Promise<RetentionOverview> {
  const { database } = await startStudio();
  const [policy, workflows, bytes, wouldRemove, note] = await Promise.all([
    readStudioRetention(database),
    listWorkflowRetention(database),
    databaseBytes(database),
    countPrunable(database),
    spaceNote(database),
  ]);
  return { policy, workflows, databaseBytes: bytes, wouldRemove, spaceNote: note };
}

/** PUT: the studio-wide setting (`workflowId` null) or a workflow's own (404 when there is no such workflow). */
export async function changeRetention(request: Request, principal: Principal, workflowId: string | null, policy: RetentionPolicy): Promise<RetentionOverview> {
  const studio = await startStudio();
  let workflowName: string | null = null;
  if (workflowId !== null) {
    const workflow = await studio.database.workflow.findUnique({ where: { id: workflowId }, select: { name: true } });
    if (!workflow) throw new NotFoundError("workflow", workflowId);
    workflowName = workflow.name;
  }
  await saveRetention(policy, principal.person, workflowId, studio.database);
  await recordAudit(
    {
      actor: principal.person,
      actorId: principal.personId,
      action: "retention-changed",
      target: workflowId,
      detail: { scope: workflowName === null ? "studio" : `workflow “${workflowName}”`, ...(workflowName === null ? {} : { workflow: workflowName }), policy },
      clientAddress: clientAddress(request),
    },
    studio.database,
  );
  studio.retention?.pruneSoon();
  return retentionOverview();
}

/** DELETE on a workflow's: the studio-wide setting applies to it again. 404 when it had none. */
export async function clearRetention(request: Request, principal: Principal, workflowId: string): Promise<RetentionOverview> {
  const studio = await startStudio();
  if (!(await clearWorkflowRetention(workflowId, studio.database))) throw new NotFoundError("retention setting of workflow", workflowId);
  await recordAudit(
    { actor: principal.person, actorId: principal.personId, action: "retention-changed", target: workflowId, detail: { scope: "workflow", policy: "the studio's" }, clientAddress: clientAddress(request) },
    studio.database,
  );
  studio.retention?.pruneSoon();
  return retentionOverview();
}
