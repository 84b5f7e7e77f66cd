import { createHash } from "node:crypto";
import pg from "pg";

/*
 * A small `pg` pool beside Prisma's, for the run hot path on PostgreSQL (a
 * run's commits, loadRun, claimRun, listGrants, readEvents): through Prisma
 * every commit is an interactive transaction of several compiled queries, each
 * its own round trip through the query interpreter; here a commit is a few
 * named prepared statements (parsed and planned once per connection), and the
 * commits in flight share one transaction. It reads and writes what Prisma
 * does, in the formats its PostgreSQL adapter uses (JSON as text, DateTime as
 * `timestamp(3) without time zone` holding UTC).
 */

/** Connections each process keeps for the hot path (Prisma keeps POSTGRES_POOL_SIZE more). */
export const STATEMENT_POOL_SIZE = 4;

/** `timestamp without time zone`: read as its text (pg would read it as local time), see `readDate`. */
const TIMESTAMP_OID = 1114;

/** A DateTime as Prisma's adapter writes it: UTC, `YYYY-MM-DD HH:MM:SS.mmm`, no zone (the column has none). */
export const postgresDate = (value: string): string => new Date(value).toISOString().replace("T", " ").replace("Z", "");

/** The same SQL with PostgreSQL's numbered placeholders for SQLite's `?` (the statements here hold no `?` of their own). */
const numbered = new Map<string, string>();
export function postgresPlaceholders(sql: string): string {
  let text = numbered.get(sql);
  if (text === undefined) {
    let index = 0;
    text = sql.replace(/\?/g, () => `$${++index}`);
    numbered.set(sql, text);
  }
  return text;
}

const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP_OID ? (text: string) => text : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * Runs SQL text with `$n` placeholders inside some transaction: the shape the run queue (lib/server/queue/run-queue.ts)
 * asks for a drive through, so the request commits with the rows that need it, whichever way the transaction was opened.
 */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** A transaction of the statement pool as an executor (its statements prepared, like the rest of the hot path). */
export function statementExecutor(runner: StatementRunner): SqlExecutor {
  return { executeSql: async (text, values = []) => ({ rows: (await runner.run(text, values)).rows }) };
}

/** A Prisma interactive transaction as an executor. */
export function prismaExecutor(transaction: { $queryRawUnsafe(text: string, ...values: unknown[]): Promise<unknown> }): SqlExecutor {
  return {
    executeSql: async (text, values = []) => {
      const rows = await transaction.$queryRawUnsafe(text, ...values);
      return { rows: Array.isArray(rows) ? rows : [] };
    },
  };
}

/** What runs statements: the pool, or one connection inside a transaction. */
export interface StatementRunner {
  /** Runs `text` as a named prepared statement; its rows and how many rows it changed. */
  run<Row = Record<string, unknown>>(text: string, values: unknown[]): Promise<{ rows: Row[]; changed: number }>;
}

/** One name per statement text: prepared once on each connection, then only bound and executed. */
const names = new Map<string, string>();
function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `studio_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

async function runOn<Row>(client: pg.Pool | pg.PoolClient, text: string, values: unknown[]): Promise<{ rows: Row[]; changed: number }> {
  const result = await client.query({ name: statementName(text), text, values });
  return { rows: result.rows as Row[], changed: result.rowCount ?? 0 };
}

/**
 * The hot path's pool on one PostgreSQL database. The pool is made on first
 * use and again after `end()` (as Prisma reconnects after `$disconnect`), so a
 * client that was closed and used again keeps working.
 */
export class PostgresStatements implements StatementRunner {
  private pool: pg.Pool | null = null;

  constructor(
    private readonly url: string,
    private readonly log: (message: string, error: unknown) => void = (message, error) => console.error(`[studio] ${message}`, error),
  ) {}

  private current(): pg.Pool {
    if (this.pool) return this.pool;
    // allowExitOnIdle: idle connections never keep a finished script or test alive.
    const pool = new pg.Pool({ connectionString: this.url, max: STATEMENT_POOL_SIZE, types, allowExitOnIdle: true });
    // An idle connection the server dropped (a restart): the pool discards it and opens another when asked.
    pool.on("error", (error) => this.log("a pooled PostgreSQL connection failed; the pool replaces it", error));
    this.pool = pool;
    return pool;
  }

  run<Row = Record<string, unknown>>(text: string, values: unknown[]): Promise<{ rows: Row[]; changed: number }> {
    return runOn<Row>(this.current(), text, values);
  }

  /**
   * Runs `work` in a transaction on one connection: COMMIT when it resolves,
   * ROLLBACK when it throws (then rethrows). A connection on which BEGIN,
   * COMMIT or ROLLBACK itself failed (the server went away) is discarded
   * rather than handed back to the pool.
   */
  async transaction<T>(work: (runner: StatementRunner) => Promise<T>): Promise<T> {
    const client = await this.current().connect();
    let broken: Error | undefined;
    // The pool stops listening while a connection is checked out: a server that goes away between two statements
    // would otherwise be an unhandled 'error' event, which ends the process.
    const onError = (error: Error) => {
      broken = error;
    };
    client.on("error", onError);
    const control = async (command: "BEGIN" | "COMMIT" | "ROLLBACK") => {
      try {
        await client.query(command);
      } catch (error) {
        broken = error instanceof Error ? error : new Error(String(error));
        throw error;
      }
    };
    try {
      await control("BEGIN");
      let result: T;
      try {
        result = await work({ run: (text, values) => runOn(client, text, values) });
      } catch (error) {
        // The work's own error is what the caller needs to see, not a failed ROLLBACK's.
        await control("ROLLBACK").catch(() => undefined);
        throw error;
      }
      await control("COMMIT");
      return result;
    } finally {
      client.off("error", onError);
      client.release(broken);
    }
  }

  /** Closes the pool's connections; the next statement opens a new pool. */
  async end(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.end();
  }
}
