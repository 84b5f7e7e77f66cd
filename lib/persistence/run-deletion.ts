import { CHILD_RUN_KINDS, FINISHED_RUN_STATUSES } from "@/lib/contracts/run";
import type { DeletedRun } from "@/lib/contracts/retention";
import { BUSY_TRANSACTION, getDatabase, type StudioDatabase } from "./database";
import { ConflictError, NotFoundError } from "./errors";
import type { RunWrites } from "./sqlite-writer";

/*
 * Removing runs, by hand (DELETE /api/runs/{id}) or by retention
 * (lib/server/retention.ts). A run's steps, events, approvals, agent
 * checkpoints, token counts per model and webhook idempotency keys reference it with ON DELETE CASCADE,
 * so deleting the Run rows removes them in the same statement. What refers to a
 * run without a foreign key is handled here:
 * - the runs its steps called (sourceKind sub-workflow / for-each): removed
 *   with it, at every depth; they are part of it (its page lists them, its
 *   steps' results came from them);
 * - pins made from its output (WorkflowPin.fromRunId): the pin is the editor's
 *   test data, which a person chose to keep, so it stays and forgets the run;
 * - retries, runs again and error workflows' runs made from it: runs of their
 *   own, kept; their page shows no source once it is gone.
 */

export const FINISHED = [...FINISHED_RUN_STATUSES];
const CHILD_KINDS = [...CHILD_RUN_KINDS];
type Transaction = Parameters<Parameters<StudioDatabase["$transaction"]>[0]>[0];

/** A run, or one of the runs it called, is not finished: nothing was deleted. */
export class RunStillGoingError extends ConflictError {
  constructor(runId: string, message: string) {
    super("run", runId, message);
  }
}

/** `rootIds` and every run their steps called, at every depth, with their statuses (in a transaction, or not). */
async function withCalledRuns(rootIds: readonly string[], transaction: Pick<Transaction, "run">): Promise<{ id: string; status: string; rootOf: string }[]> {
  const found = (await transaction.run.findMany({ where: { id: { in: [...rootIds] } }, select: { id: true, status: true } })).map((row) => ({ ...row, rootOf: row.id }));
  let level = found;
  while (level.length > 0) {
    const rootOf = new Map(level.map((row) => [row.id, row.rootOf]));
    const children = await transaction.run.findMany({
      where: { sourceRunId: { in: level.map((row) => row.id) }, sourceKind: { in: CHILD_KINDS } },
      select: { id: true, status: true, sourceRunId: true },
    });
    level = children.map((child) => ({ id: child.id, status: child.status, rootOf: rootOf.get(child.sourceRunId!)! }));
    found.push(...level);
  }
  return found;
}

/**
 * Deletes the finished runs `rootIds` with everything of theirs (see above),
 * in the caller's transaction. A root with a run of its tree still running or
 * waiting is left whole, and returned in `kept`.
 */
export async function deleteRunTrees(rootIds: readonly string[], transaction: Transaction): Promise<{ deleted: string[]; kept: string[] }> {
  const { doomed, kept } = partitionTrees(rootIds, await withCalledRuns(rootIds, transaction));
  if (doomed.length > 0) {
    await transaction.workflowPin.updateMany({ where: { fromRunId: { in: doomed } }, data: { fromRunId: null } });
    // Only finished rows: on PostgreSQL a row read above may have changed since (read committed), and a run that is
    // going again must not lose its rows. A count short of what was read rolls the whole batch back.
    const { count } = await transaction.run.deleteMany({ where: { id: { in: doomed }, status: { in: FINISHED } } });
    if (count !== doomed.length) throw new RunStillGoingError(doomed[0]!, STARTED_AGAIN);
  }
  return { deleted: doomed, kept };
}

const STARTED_AGAIN = "A run started again while it was being deleted; nothing was deleted.";

/** The runs of the trees to delete, and the roots kept whole because a run of theirs is still going. */
function partitionTrees(rootIds: readonly string[], tree: { id: string; status: string; rootOf: string }[]): { doomed: string[]; kept: string[] } {
  const going = new Set(tree.filter((row) => !FINISHED_RUN_STATUSES.has(row.status as never)).map((row) => row.rootOf));
  return { doomed: tree.filter((row) => !going.has(row.rootOf)).map((row) => row.id), kept: rootIds.filter((id) => going.has(id)) };
}

const FORGET_PIN_SOURCE = `UPDATE "WorkflowPin" SET "fromRunId" = NULL WHERE "fromRunId" = ?`;
const DELETE_FINISHED_RUN = `DELETE FROM "Run" WHERE "id" = ? AND "status" IN (${FINISHED.map(() => "?").join(", ")})`;

/**
 * deleteRunTrees for retention on SQLite: the trees are read here, and the deletes (their steps, events and the rest
 * cascading) are written by the run writer's connection, on its thread, in one transaction. The thread that serves
 * requests then never waits for SQLite's write lock: its wait is a sleep that holds every request (pruning 100,000 runs
 * through Prisma delayed a concurrent run's start by up to 130 ms). A run that started again meanwhile fails the
 * whole batch (RunStillGoingError), as in deleteRunTrees.
 */
export async function deleteRunTreesThrough(writer: RunWrites, rootIds: readonly string[], database: StudioDatabase): Promise<{ deleted: string[]; kept: string[] }> {
  const { doomed, kept } = partitionTrees(rootIds, await withCalledRuns(rootIds, database));
  if (doomed.length > 0) {
    const writes = doomed.flatMap((id) => [
      { sql: FORGET_PIN_SOURCE, values: [id] },
      { sql: DELETE_FINISHED_RUN, values: [id, ...FINISHED], mustChange: STARTED_AGAIN },
    ]);
    try {
      await writer.commit(writes);
    } catch (error) {
      if (error instanceof Error && error.message === STARTED_AGAIN) throw new RunStillGoingError(doomed[0]!, STARTED_AGAIN);
      throw error;
    }
  }
  return { deleted: doomed, kept };
}

/**
 * DELETE /api/runs/{id}: the run and everything of it, or nothing. 404 when
 * there is no such run; 409 (RunStillGoingError) when it, or a run it called,
 * is running or waiting: cancel it first.
 */
export async function deleteRun(runId: string, database: StudioDatabase = getDatabase()): Promise<DeletedRun> {
  return database.$transaction(async (transaction) => {
    const run = await transaction.run.findUnique({
      where: { id: runId },
      select: { id: true, status: true, workflowId: true, sourceRunId: true, sourceKind: true, workflow: { select: { name: true } } },
    });
    if (!run) throw new NotFoundError("run", runId);
    if (!FINISHED_RUN_STATUSES.has(run.status as never)) {
      const state = run.status === "awaiting_input" ? "waiting for input" : run.status;
      throw new RunStillGoingError(runId, `The run is ${state}: cancel it first, then delete it.`);
    }
    if (run.sourceRunId !== null && (CHILD_KINDS as string[]).includes(run.sourceKind ?? "")) {
      // The calling step finds its child's result by this row when its run goes on; without it, it would run the child again.
      const caller = await transaction.run.findUnique({ where: { id: run.sourceRunId }, select: { status: true } });
      if (caller && !FINISHED_RUN_STATUSES.has(caller.status as never)) {
        throw new RunStillGoingError(runId, `The run that called this one (${run.sourceRunId}) is still going: cancel it first, or delete that run once it has finished.`);
      }
    }
    const { deleted, kept } = await deleteRunTrees([runId], transaction);
    if (kept.length > 0) throw new RunStillGoingError(runId, "A run this run called (a sub-workflow or a For each item) is still going: cancel it first, then delete this run.");
    return { id: run.id, workflowId: run.workflowId, workflowName: run.workflow.name, runsDeleted: deleted.length };
  }, BUSY_TRANSACTION);
}
