import { getDatabase, type StudioDatabase } from "./database";
import { preparedRows } from "./hot-path";

/*
 * The reads every authorized request makes (lib/server/access), as prepared
 * statements: a Prisma query is compiled anew each time and cost the run
 * start path half a millisecond, more than the rest of the check together.
 * Prisma answers for a client opened without a prepared-statement path.
 */

/** A workflow's owner and the roles of its shares that name `subject` (by person or by role); null when no such workflow. */
export async function workflowAccessRow(
  workflowId: string,
  subject: { personId: string; role: string },
  database: StudioDatabase = getDatabase(),
): Promise<{ ownerId: string | null; shares: { role: string }[] } | null> {
  const rows = await preparedRows<{ ownerId: string | null; role: string | null }>(
    database,
    `SELECT w."ownerId" AS "ownerId", s."role" AS "role" FROM "Workflow" w LEFT JOIN "WorkflowShare" s ON s."workflowId" = w."id" AND (s."personId" = ? OR s."subjectRole" = ?) WHERE w."id" = ?`,
    [subject.personId, subject.role, workflowId],
  );
  if (rows === null) {
    return database.workflow.findUnique({
      where: { id: workflowId },
      select: { ownerId: true, shares: { where: { OR: [{ personId: subject.personId }, { subjectRole: subject.role }] }, select: { role: true } } },
    });
  }
  if (rows.length === 0) return null;
  return { ownerId: rows[0]!.ownerId, shares: rows.flatMap((row) => (row.role === null ? [] : [{ role: row.role }])) };
}

/** Whether a workflow with this id exists. */
export async function workflowExists(workflowId: string, database: StudioDatabase = getDatabase()): Promise<boolean> {
  const rows = await preparedRows<{ id: string }>(database, `SELECT "id" FROM "Workflow" WHERE "id" = ?`, [workflowId]);
  if (rows === null) return (await database.workflow.findUnique({ where: { id: workflowId }, select: { id: true } })) !== null;
  return rows.length > 0;
}

/** The workflow a run or an approval belongs to; null when there is no such run or approval. */
export async function workflowIdOf(kind: "run" | "approval", id: string, database: StudioDatabase = getDatabase()): Promise<string | null> {
  const sql =
    kind === "run"
      ? `SELECT "workflowId" FROM "Run" WHERE "id" = ?`
      : `SELECT r."workflowId" AS "workflowId" FROM "Approval" a JOIN "Run" r ON r."id" = a."runId" WHERE a."id" = ?`;
  const rows = await preparedRows<{ workflowId: string }>(database, sql, [id]);
  if (rows !== null) return rows[0]?.workflowId ?? null;
  if (kind === "run") return (await database.run.findUnique({ where: { id }, select: { workflowId: true } }))?.workflowId ?? null;
  return (await database.approval.findUnique({ where: { id }, select: { run: { select: { workflowId: true } } } }))?.run.workflowId ?? null;
}
