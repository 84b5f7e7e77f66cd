import type BetterSqlite3 from "better-sqlite3";
import type { SqliteConnection } from "./sqlite-connection";
import { statement } from "./prepared";
import type { Write } from "./run-commit-writes";
import type { RunWrites } from "./sqlite-writer";

interface QueuedCommit {
  writes: Write[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * A run's writes on the client's own connection, where no writer thread runs
 * (STUDIO_SQLITE_WRITER=inline, an in-memory database): the same group commit
 * as the thread's. Commits issued in the same turn of the event loop, from any
 * run, share one transaction, each in its own savepoint, so one failing commit
 * fails alone. The transaction takes the lock Prisma's own transactions take.
 */
export class InlineSqliteWriter implements RunWrites {
  private queued: QueuedCommit[] = [];
  private flushScheduled = false;
  transactions = 0;

  constructor(private readonly connection: () => Promise<SqliteConnection | null>) {}

  commit(writes: Write[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queued.push({ writes, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        // One turn later: every run's commit issued meanwhile joins the same transaction.
        setImmediate(() => void this.flush());
      }
    });
  }

  /** Nothing runs beside the connection, which the client closes itself. */
  async close(): Promise<void> {}

  /** Writes every queued commit in one transaction, each in its own savepoint; resolves each once COMMIT is done. */
  private async flush(): Promise<void> {
    let batch: QueuedCommit[] = [];
    const outcomes: unknown[] = [];
    try {
      const connection = await this.connection();
      if (!connection) throw new Error("The SQLite connection is gone.");
      const transaction = await connection.transaction();
      // Taken after the lock, so commits queued while waiting for it come along.
      batch = this.queued;
      this.queued = [];
      this.flushScheduled = false;
      this.transactions += 1;
      const { database } = connection;
      try {
        for (const { writes } of batch) outcomes.push(applyInSavepoint(database, writes));
        statement(database, "COMMIT").run();
      } catch (error) {
        if (database.inTransaction) statement(database, "ROLLBACK").run();
        throw error;
      } finally {
        await transaction.release();
      }
    } catch (error) {
      if (batch.length === 0) {
        batch = this.queued;
        this.queued = [];
        this.flushScheduled = false;
      }
      for (const { reject } of batch) reject(error);
      return;
    }
    batch.forEach(({ resolve, reject }, index) => (outcomes[index] === null ? resolve() : reject(outcomes[index])));
  }
}

/** Applies one commit inside the open transaction; returns null, or the error that undid it (and only it). */
function applyInSavepoint(database: BetterSqlite3.Database, writes: Write[]): unknown {
  statement(database, "SAVEPOINT run_commit").run();
  try {
    for (const write of writes) {
      const { changes } = statement(database, write.sql).run(...write.values);
      if (write.mustChange && changes === 0) throw new Error(write.mustChange);
    }
    statement(database, "RELEASE run_commit").run();
    return null;
  } catch (error) {
    statement(database, "ROLLBACK TO run_commit").run();
    statement(database, "RELEASE run_commit").run();
    return error;
  }
}
