import { refusalUnderPolicy, type PolicyDecider } from "@/lib/contracts/approval-policy";
import type { ApprovalDetail, ApprovalForViewer } from "@/lib/contracts/approval";
import { RoleSchema, ShareRoleSchema, type Role } from "@/lib/contracts/roles";
import type { StudioDatabase } from "@/lib/persistence";
import { firstOwnerId } from "@/lib/persistence/people-store";
import { signedInAs, type Principal } from "./access/principal";
import { shareOf, workflowIdsWith } from "./access/workflow-access";

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
    where: { workflowId: { in: workflowIds }, ...shareOf(principal) },
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

/** A person who may decide an approval, as the notifications need them. */
export interface ApprovalDecider {
  id: string;
  login: string;
  displayName: string;
}

/**
 * The active people who may decide `approval` now: forViewer's answer for
 * each of them as signed in with their role, so the inbox's card and the
 * notification agree on who may answer.
 */
export async function decidersOf(approval: ApprovalDetail, database: StudioDatabase): Promise<ApprovalDecider[]> {
  const [people, ownerId] = await Promise.all([
    database.person.findMany({ where: { active: true }, select: { id: true, login: true, displayName: true, role: true }, orderBy: { createdAt: "asc" } }),
    firstOwnerId(database),
  ]);
  const deciders: ApprovalDecider[] = [];
  for (const person of people) {
    const role = RoleSchema.safeParse(person.role);
    if (!role.success) continue;
    const [seen] = await forViewer([approval], signedInAs({ id: person.id, name: person.displayName, role: role.data }, ownerId), database);
    if (seen?.viewer.mayDecide) deciders.push({ id: person.id, login: person.login, displayName: person.displayName });
  }
  return deciders;
}
