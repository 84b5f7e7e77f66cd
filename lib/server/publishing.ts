import { secretsOfWorkflow } from "@/lib/tools/secrets";
import { recordAudit } from "@/lib/persistence/audit-store";
import type { StudioDatabase } from "@/lib/persistence/database";
import { publishVersion, unpublish, type PublishedState } from "@/lib/persistence/publishing";
import { clientAddress, type Principal } from "./access/principal";
import { HttpError } from "./http";
import { workflowLookup } from "./error-workflows";
import { validateForRun } from "./run-validation";
import { startStudio } from "./studio";

/**
 * Publishing a workflow makes its triggers start runs of that version without
 * anyone pressing Run, so only a version that could run now is published
 * (422 with its problems otherwise), and who did it goes to the security log.
 */
export async function publishWorkflow(request: Request, principal: Principal, workflowId: string, version: number | undefined): Promise<PublishedState> {
  const studio = await startStudio();
  const published = await publishVersion(workflowId, version, studio.database, async (versionId, definition) => {
    const validation = await validateForRun(versionId, definition, { pool: studio.pool(), secrets: secretsOfWorkflow(studio.secrets, workflowId), workflows: workflowLookup(studio.database, workflowId) });
    const errors = validation.problems.filter((problem) => problem.severity === "error");
    if (errors.length > 0) {
      throw new HttpError(422, `This version cannot go live yet: ${errors.map((problem) => problem.message).join("; ")}`, { problems: validation.problems });
    }
  });
  await recordAudit({
    actor: principal.person,
    actorId: principal.personId,
    action: "workflow-published",
    target: workflowId,
    detail: {
      workflow: await workflowName(studio.database, workflowId),
      version: published.publishedVersion,
      webhooks: published.webhooks.map((webhook) => `/hooks/${webhook.path}`),
    },
    clientAddress: clientAddress(request),
  });
  // This process's schedules follow at once; other processes' within their next refresh.
  await studio.schedules?.workflowChanged(workflowId);
  return published;
}

export async function unpublishWorkflow(request: Request, principal: Principal, workflowId: string): Promise<PublishedState> {
  const studio = await startStudio();
  const state = await unpublish(workflowId, studio.database);
  await studio.schedules?.workflowChanged(workflowId);
  await recordAudit({
    actor: principal.person,
    actorId: principal.personId,
    action: "workflow-unpublished",
    target: workflowId,
    detail: { workflow: await workflowName(studio.database, workflowId) },
    clientAddress: clientAddress(request),
  });
  return state;
}

/** The workflow's name, for the security log: an id alone tells a reader nothing. */
async function workflowName(database: StudioDatabase, workflowId: string): Promise<string | null> {
  const workflow = await database.workflow.findUnique({ where: { id: workflowId }, select: { name: true } });
  return workflow?.name ?? null;
}
