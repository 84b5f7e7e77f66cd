import { ROLE_SCOPES, seesEveryWorkflow, ShareRoleSchema, type Scope } from "@/lib/contracts/roles";
import type { StudioDatabase } from "@/lib/persistence";
import { workflowAccessRow, workflowExists } from "@/lib/persistence/access-queries";
import type { Prisma } from "@/lib/persistence/generated/sqlite/client";
import type { Principal } from "./principal";

/**
 * What a person may do on one workflow: everything their credential allows
 * on workflows they own (or, for owners and admins, on every workflow); on a
 * workflow shared with them (by name or by their role), what the share's role
 * allows, never more than their own; on any other, nothing, and they do not
 * see it at all (a 404, the same as a workflow that does not exist).
 */

/** The scopes `principal` holds on `workflowId`, or null when they may not see it (or it does not exist). */
export async function scopesOnWorkflow(principal: Principal, workflowId: string, database: StudioDatabase): Promise<ReadonlySet<Scope> | null> {
  if (seesEveryWorkflow(principal.role)) return (await workflowExists(workflowId, database)) ? principal.scopes : null;
  const row = await workflowAccessRow(workflowId, { personId: principal.personId, role: principal.role }, database);
  return row ? scopesFrom(principal, row) : null;
}

/** The scopes on a workflow with this owner and these shares (those matching the principal), or null. */
function scopesFrom(principal: Principal, row: { ownerId: string | null; shares: { role: string }[] }): ReadonlySet<Scope> | null {
  if (ownsWorkflow(principal, row.ownerId)) return principal.scopes;
  if (row.shares.length === 0) return null;
  const granted = new Set(row.shares.flatMap((share) => ROLE_SCOPES[ShareRoleSchema.parse(share.role)]));
  return new Set([...principal.scopes].filter((scope) => granted.has(scope)));
}

/** The shares of a workflow that name `principal`: by person, or by their role. */
export function shareOf(principal: Pick<Principal, "personId" | "role">): Prisma.WorkflowShareWhereInput {
  return { OR: [{ personId: principal.personId }, { subjectRole: principal.role }] };
}

/**
 * The workflows `principal` may see, as a filter for lists (workflows, runs,
 * approvals, feeds); null when they see every workflow. One indexed query,
 * whatever the number of workflows.
 */
export function visibleWorkflows(principal: Principal): Prisma.WorkflowWhereInput | null {
  if (seesEveryWorkflow(principal.role)) return null;
  const theirs: Prisma.WorkflowWhereInput[] = [{ ownerId: principal.personId }, { shares: { some: shareOf(principal) } }];
  if (principal.firstOwner) theirs.push({ ownerId: null });
  return { OR: theirs };
}

/** The ids of the workflows `principal` may see with `scope` on them; null when that is every workflow. */
export async function workflowIdsWith(principal: Principal, scope: Scope, database: StudioDatabase): Promise<Set<string> | null> {
  if (!principal.scopes.has(scope)) return new Set();
  const filter = visibleWorkflows(principal);
  if (filter === null) return null;
  const rows = await database.workflow.findMany({ where: filter, select: { id: true, ownerId: true, shares: { where: shareOf(principal), select: { role: true } } } });
  return new Set(rows.filter((row) => scopesFrom(principal, row)?.has(scope)).map((row) => row.id));
}

/** Whether `principal` may change who else sees the workflow: it is theirs, or they see every workflow (owners, admins). */
export async function mayShare(principal: Principal, workflowId: string, database: StudioDatabase): Promise<boolean> {
  if (seesEveryWorkflow(principal.role)) return true;
  const row = await database.workflow.findUnique({ where: { id: workflowId }, select: { ownerId: true } });
  return row !== null && ownsWorkflow(principal, row.ownerId);
}

function ownsWorkflow(principal: Principal, ownerId: string | null): boolean {
  return ownerId === principal.personId || (ownerId === null && principal.firstOwner);
}
