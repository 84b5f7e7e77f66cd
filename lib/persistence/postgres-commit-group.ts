import { combineWrites } from "./combined-statement";
import type { PostgresStatements, StatementRunner } from "./postgres-statements";
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
 * A batch that fails is written again a commit a transaction (`oneByOne`): the
 * one that failed (a drive fenced out, a run that is gone, an event already
 * stored) rejects with its own error, and the others still land. Commits are
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
      try {
        await this.statements.transaction(async (runner) => {
          for (const { writes } of batch) await applyWrites(runner, writes);
        });
      } catch (error) {
        // Alone in its transaction, a commit's error is its own.
        if (batch.length === 1) batch[0]!.reject(error);
        else await this.oneByOne(batch);
        continue;
      }
      for (const { resolve } of batch) resolve();
    }
    this.flushing = false;
  }

  /**
   * A batch failed as a whole, and with it every commit in it: each is written again in a transaction of its own, so
   * the one that failed (a drive fenced out, a run that is gone, an event already stored) fails alone with its own
   * error and the others land. Failures are rare, so the common batch pays no savepoint per commit for them (two
   * round trips each).
   */
  private async oneByOne(batch: QueuedCommit[]): Promise<void> {
    for (const { writes, resolve, reject } of batch) {
      try {
        await this.statements.transaction((runner) => applyWrites(runner, writes));
        resolve();
      } catch (error) {
        reject(error);
      }
    }
  }
}

/**
 * Runs one commit's writes on `runner` (inside its transaction) as one statement, one round trip where they took one
 * each (the run's fenced update, its steps, its events with their notification, usage), failing when a write that had
 * to change a row did not: the error undoes the statement with the transaction.
 */
async function applyWrites(runner: StatementRunner, writes: Write[]): Promise<void> {
  const statement = combineWrites(writes);
  const { rows } = await runner.run<Record<string, unknown>>(statement.text, statement.values);
  const unchanged = statement.unchanged(rows[0]);
  if (unchanged) throw new Error(unchanged);
}
