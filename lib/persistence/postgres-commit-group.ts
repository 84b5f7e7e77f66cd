import type { PostgresStatements, StatementRunner } from "./postgres-statements";
import { postgresPlaceholders } from "./postgres-statements";
import type { Write } from "./run-commit-writes";

interface QueuedCommit {
  runId: string;
  writes: Write[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for runs on PostgreSQL: the commits this process has in flight
 * (from any run) go in one transaction, so a busy worker pays one round of
 * COMMIT (and its fsync) per batch rather than per step. While a batch is
 * being written the next one gathers; each commit resolves once the
 * transaction that holds it has committed.
 *
 * In a batch of several, each commit runs in its own SAVEPOINT: one that fails
 * (a drive fenced out, a run that is gone, an event already stored) is undone
 * alone and rejects with its own error, and the others still land. Commits are
 * written in the order of their run ids, so two processes whose batches touch
 * the same runs (a run changing hands) lock their rows in the same order and
 * never deadlock.
 */
export class PostgresCommitGroup {
  private queued: QueuedCommit[] = [];
  private flushing = false;

  constructor(private readonly statements: PostgresStatements) {}

  /** Resolves once `writes` are committed; rejects with the error that undid them (and only them). */
  commit(runId: string, writes: Write[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queued.push({ runId, writes, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        // One turn later: every run's commit issued meanwhile joins the same transaction.
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    while (this.queued.length > 0) {
      // A stable sort: one run's commits (the RunWriter sends one at a time anyway) keep their order.
      const batch = this.queued.splice(0).sort((left, right) => (left.runId < right.runId ? -1 : left.runId > right.runId ? 1 : 0));
      let outcomes: unknown[];
      try {
        outcomes = await this.statements.transaction(async (runner) => {
          // Alone in its transaction, a commit needs no savepoint: if it fails, the whole (its own) transaction is undone.
          if (batch.length === 1) {
            await applyWrites(runner, batch[0]!.writes);
            return [null];
          }
          const results: unknown[] = [];
          for (const { writes } of batch) results.push(await applyInSavepoint(runner, writes));
          return results;
        });
      } catch (error) {
        for (const { reject } of batch) reject(error);
        continue;
      }
      batch.forEach(({ resolve, reject }, index) => (outcomes[index] === null ? resolve() : reject(outcomes[index])));
    }
    this.flushing = false;
  }
}

async function applyWrites(runner: StatementRunner, writes: Write[]): Promise<void> {
  for (const write of writes) {
    const { changed } = await runner.run(postgresPlaceholders(write.sql), write.values);
    if (write.mustChange && changed === 0) throw new Error(write.mustChange);
  }
}

/**
 * Applies one commit inside the open transaction; null, or the error that
 * undid it. A failure of the savepoint commands themselves (the connection is
 * gone) fails the whole transaction.
 */
async function applyInSavepoint(runner: StatementRunner, writes: Write[]): Promise<unknown> {
  await runner.run("SAVEPOINT run_commit", []);
  try {
    await applyWrites(runner, writes);
  } catch (error) {
    await runner.run("ROLLBACK TO SAVEPOINT run_commit", []);
    await runner.run("RELEASE SAVEPOINT run_commit", []);
    return error;
  }
  await runner.run("RELEASE SAVEPOINT run_commit", []);
  return null;
}
