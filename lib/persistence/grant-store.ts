import type { WriteGrantRecord } from "@/lib/contracts/grants";
import type { StudioDatabase } from "./database";

/**
 * The "Always allow" grants of a workflow, as its settings list them: every
 * one, newest first, with who gave it and when it runs out (one that ran out
 * is listed until revoked, so a person sees why a write asks again). The
 * engine reads the ones in force through the run store's listGrants.
 */
export async function workflowGrants(workflowId: string, database: StudioDatabase): Promise<WriteGrantRecord[]> {
  const rows = await database.grant.findMany({ where: { workflowId }, orderBy: [{ createdAt: "desc" }, { id: "asc" }] });
  return rows.map(toRecord);
}

/** Removes one grant of the workflow; what it was, or null when the workflow has no such grant. */
export async function revokeGrant(workflowId: string, grantId: string, database: StudioDatabase): Promise<WriteGrantRecord | null> {
  const row = await database.grant.findFirst({ where: { id: grantId, workflowId } });
  if (!row) return null;
  // A conditional delete: two revokes at once remove it once, and the second finds nothing.
  const { count } = await database.grant.deleteMany({ where: { id: grantId, workflowId } });
  return count === 1 ? toRecord(row) : null;
}

function toRecord(row: {
  id: string;
  root: string;
  pattern: string;
  createdBy: string | null;
  createdById: string | null;
  runId: string | null;
  createdAt: Date;
  expiresAt: Date | null;
}): WriteGrantRecord {
  return {
    id: row.id,
    root: row.root,
    pattern: row.pattern,
    createdBy: row.createdBy,
    createdById: row.createdById,
    runId: row.runId,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}
