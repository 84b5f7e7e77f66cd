import { refusalUnderPolicy, type PolicyDecider } from "@/lib/contracts/approval-policy";
import type { ApprovalDetail, ApprovalForViewer } from "@/lib/contracts/approval";
import { ShareRoleSchema, type Role } from "@/lib/contracts/roles";
import type { StudioDatabase } from "@/lib/persistence";
import type { Principal } from "./access/principal";
import { workflowIdsWith } from "./access/workflow-access";

/**
 * Whether the person looking may decide each approval, and if not why, in
 * words the card shows ("Only admins may decide this approval."): the scope
 * approval:decide on its workflow, then the approval's policy (who, not the
 * starter, not twice). A handful of queries for a whole inbox, whatever its
 * length: the workflows they may decide on, their shares' roles, and the
 * names a policy mentions.
 */
export async function forViewer(approvals: readonly ApprovalDetail[], principal: Principal, database: StudioDatabase): Promise<ApprovalForViewer[]> {
  if (approvals.length === 0) return [];
  const deciding = await workflowIdsWith(principal, "approval:decide", database);
  const workflowIds = [...new Set(approvals.map((approval) => approval.workflowId))];
  const shares = await database.workflowShare.findMany({
    where: { workflowId: { in: workflowIds }, OR: [{ personId: principal.personId }, { subjectRole: principal.role }] },
    select: { workflowId: true, role: true },
  });
  const rolesOn = (workflowId: string): Role[] => [principal.role, ...shares.filter((share) => share.workflowId === workflowId).map((share) => ShareRoleSchema.parse(share.role))];
  const named = [...new Set(approvals.flatMap((approval) => approval.policy.approvers.flatMap((approver) => (approver.kind === "person" ? [approver.personId] : []))))];
  const names = new Map(
    named.length === 0 ? [] : (await database.person.findMany({ where: { id: { in: named } }, select: { id: true, displayName: true } })).map((person) => [person.id, person.displayName]),
  );
  return approvals.map((approval) => {
    const decider: PolicyDecider = { personId: principal.personId, roles: rolesOn(approval.workflowId) };
    const reason =
      deciding !== null && !deciding.has(approval.workflowId)
        ? `Only people who may decide approvals on “${approval.workflowName}” can answer this (the approval:decide scope).`
        : refusalUnderPolicy(approval.policy, decider, approval.startedById, approval.votes, (id) => names.get(id));
    return { ...approval, viewer: { mayDecide: reason === null, reason } };
  });
}
