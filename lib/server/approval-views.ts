import type { ApprovalDetail } from "@/lib/contracts/approval";
import type { StudioDatabase } from "@/lib/persistence";
import { recordAudit } from "@/lib/persistence/audit-store";
import { clientAddress, type Principal } from "./access/principal";
import type { RunDriver } from "./run-driver";

/** A person reading the same card again within this long is one view: a page that reloads, a client that polls. */
const ONE_VIEW_MS = 10 * 60_000;

/**
 * Writes to the security log that a person opened an approval's card (its
 * own page: a notification's link, the edit form, GET /api/approvals/{id}),
 * so the log says who saw what was asked before it was decided, as it says
 * who decided. Reading it again within ONE_VIEW_MS adds nothing; the lookup
 * stays on the log's (actorId, at) and (action, at) indexes.
 */
export async function recordApprovalView(approval: ApprovalDetail, principal: Principal, request: Request, database: StudioDatabase, runs: RunDriver): Promise<void> {
  const since = new Date(Date.now() - ONE_VIEW_MS);
  const who = principal.personId !== null ? { actorId: principal.personId } : { actor: principal.person };
  const seen = await database.auditEntry.findFirst({ where: { ...who, action: "approval-viewed", at: { gte: since }, target: approval.id }, select: { id: true } });
  if (seen) return;
  await recordAudit(
    {
      actor: principal.person,
      actorId: principal.personId,
      action: "approval-viewed",
      target: approval.id,
      detail: { workflow: approval.workflowName, runId: approval.runId, kind: approval.kind, tool: approval.tool, status: approval.status },
      clientAddress: clientAddress(request),
    },
    database,
  );
  // Before its decision, the run's timeline says who opened the card too (stored already: a failure here leaves it to the decision).
  if (approval.status === "pending") {
    await runs.approvalChanged(approval.id, approval.runId).catch((error: unknown) => console.error(`[studio] could not tell run ${approval.runId} that approval ${approval.id} was opened`, error));
  }
}
