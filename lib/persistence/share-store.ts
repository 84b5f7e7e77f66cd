import type { WorkflowShare, WorkflowShareView } from "@/lib/contracts/people";
import { RoleSchema, ShareRoleSchema } from "@/lib/contracts/roles";
import { getDatabase, type StudioDatabase } from "./database";
import { NotFoundError } from "./errors";
import { newId } from "./ids";

/** Who a workflow is shared with (lib/server/access/workflow-access.ts reads them on every request that names it). */

export async function listShares(workflowId: string, database: StudioDatabase = getDatabase()): Promise<WorkflowShareView[]> {
  const rows = await database.workflowShare.findMany({ where: { workflowId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], include: { person: { select: { displayName: true } } } });
  return rows.map((row) => ({
    subject: row.personId ? { personId: row.personId, displayName: row.person?.displayName ?? row.personId } : { role: RoleSchema.parse(row.subjectRole) },
    role: ShareRoleSchema.parse(row.role),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
  }));
}

/**
 * Replaces a workflow's shares with `shares`, in one transaction. Every person
 * named must exist (NotFoundError naming them, nothing changed).
 */
export async function replaceShares(workflowId: string, shares: WorkflowShare[], by: string, database: StudioDatabase = getDatabase()): Promise<void> {
  const personIds = [...new Set(shares.flatMap((share) => ("personId" in share.subject ? [share.subject.personId] : [])))];
  const known = new Set((await database.person.findMany({ where: { id: { in: personIds } }, select: { id: true } })).map((row) => row.id));
  const unknown = personIds.find((id) => !known.has(id));
  if (unknown) throw new NotFoundError("person", unknown);
  // One share per subject: the last one given wins.
  const bySubject = new Map(shares.map((share) => ["personId" in share.subject ? `person:${share.subject.personId}` : `role:${share.subject.role}`, share]));
  await database.$transaction([
    database.workflowShare.deleteMany({ where: { workflowId } }),
    database.workflowShare.createMany({
      data: [...bySubject.values()].map((share) => ({
        id: newId(),
        workflowId,
        personId: "personId" in share.subject ? share.subject.personId : null,
        subjectRole: "role" in share.subject ? share.subject.role : null,
        role: share.role,
        createdBy: by,
      })),
    }),
  ]);
}
