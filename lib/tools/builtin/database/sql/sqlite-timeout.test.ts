import Database from "better-sqlite3";
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AutoApproveIOHandler } from "../../../io-handler";
import { secretsFromRecord } from "../../../secrets";
import { createToolContext } from "../../../tool-context";
import { DatabaseToolError } from "./session";
import { SqlTool } from "./sql-tool";
import { openSqlite } from "./sqlite-session";
import { isAlive, waitFor } from "../../../testing/processes";

/** Never ends on its own: counts upwards for ever. */
const RUNAWAY = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";
/** Short so the test is quick; the studio's default is STATEMENT_TIMEOUT_MS. */
const TEST_TIMEOUT_MS = 1_500;
/** Generous: the machine running the tests may be loaded. */
const SLACK_MS = 10_000;

let directory: string;
let file: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "sqlite-timeout-"));
  file = path.join(directory, "values.db");
  const database = new Database(file);
  database.exec(`
    CREATE TABLE "value kinds" (whole INTEGER, real REAL, text TEXT, untyped, blob BLOB, big INTEGER);
    INSERT INTO "value kinds" VALUES (42, 2.5, 'héllo ⏎', NULL, x'00ff10', 9007199254740993), (-1, 0.1, '', NULL, x'', 0);
  `);
  database.close();
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** Counts the event loop's turns while `work` runs: a blocked loop counts none. */
async function ticksDuring<T>(work: () => Promise<T>): Promise<{ ticks: number; elapsed: number; outcome: PromiseSettledResult<T> }> {
  let ticks = 0;
  const interval = setInterval(() => (ticks += 1), 20);
  const started = Date.now();
  const [outcome] = await Promise.allSettled([work()]);
  clearInterval(interval);
  return { ticks, elapsed: Date.now() - started, outcome: outcome! };
}

/** The child processes of this test process still running better-sqlite3's script. */
function sqliteChildren(): string[] {
  let listing: string;
  try {
    listing = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], { encoding: "utf8" });
  } catch {
    // ps exits 1 when no process matches.
    listing = "";
  }
  return listing.split("\n").filter((line) => line.includes("better-sqlite3"));
}


describe("sql tool: SQLite statements run where they can be stopped", () => {
  it("stops a runaway query at the timeout with an error that says what to do, the event loop free meanwhile", async () => {
    const session = await openSqlite(file, { statementTimeoutMs: TEST_TIMEOUT_MS });
    try {
      const { ticks, elapsed, outcome } = await ticksDuring(() => session.query(RUNAWAY, "WITH", 10));
      expect(outcome.status).toBe("rejected");
      const error = (outcome as PromiseRejectedResult).reason as Error;
      expect(DatabaseToolError.isInstance(error)).toBe(true);
      expect(error.message).toBe(
        "The query ran longer than 1.5 seconds and was stopped; narrow it (a WHERE, an aggregate, a recursion that ends) or add a LIMIT.",
      );
      expect(elapsed).toBeGreaterThanOrEqual(TEST_TIMEOUT_MS - 50);
      expect(elapsed).toBeLessThan(TEST_TIMEOUT_MS + SLACK_MS);
      // A 20 ms interval over 1.5 s ticks about 75 times; a blocked loop would tick at most once.
      expect(ticks).toBeGreaterThan(10);
      // The session is over: its process was killed with the statement.
      await expect(session.query("SELECT 1", "SELECT", 10)).rejects.toThrow(/ran longer than/);
    } finally {
      await session.close();
    }
    await waitFor(() => sqliteChildren().length === 0, SLACK_MS, "the SQLite process gone");
  });

  it("stops a runaway query at once when the run is cancelled", async () => {
    const tool = new SqlTool();
    const controller = new AbortController();
    const ctx = createToolContext({ io: new AutoApproveIOHandler(), secrets: secretsFromRecord({ DB: `sqlite://${file}` }), signal: controller.signal });
    let abortedAt = 0;
    setTimeout(() => {
      abortedAt = Date.now();
      controller.abort();
    }, 300);
    const { ticks, outcome } = await ticksDuring(() => tool.run({ operation: "query", sql: RUNAWAY }, ctx, { boundArgs: { dsn: "${DB}" } }));
    const finishedAt = Date.now();
    expect(outcome.status).toBe("fulfilled");
    const result = (outcome as PromiseFulfilledResult<Awaited<ReturnType<SqlTool["run"]>>>).value;
    expect(result.isError).toBe(true);
    expect(result.content).toBe("The database call was cancelled.");
    expect(abortedAt).toBeGreaterThan(0);
    expect(finishedAt - abortedAt).toBeLessThan(2_000);
    expect(ticks).toBeGreaterThan(5);
    await waitFor(() => sqliteChildren().length === 0, SLACK_MS, "the SQLite process gone");
  });

  it("refuses to start when the signal is already cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(openSqlite(file, { signal: controller.signal })).rejects.toThrow("The database call was cancelled.");
  });

  it("returns the values better-sqlite3 returns, with the same columns, and reuses one process per session", async () => {
    const statement = 'SELECT whole, real, text, untyped, blob, big, whole * 2 AS "twice whole" FROM "value kinds" ORDER BY whole DESC';
    const direct = new Database(file, { readonly: true, fileMustExist: true });
    const prepared = direct.prepare(statement).raw(true);
    const expectedRows = prepared.all() as unknown[][];
    const expectedColumns = prepared.columns().map((column) => ({ name: column.name, type: column.type ?? "" }));
    direct.close();

    const session = await openSqlite(file);
    try {
      const outcome = await session.query(statement, "SELECT", 1);
      expect(outcome.columns).toEqual(expectedColumns);
      expect(outcome.rows).toEqual(expectedRows.slice(0, 1));
      expect(outcome.truncated).toBe(true);
      expect(Buffer.from(outcome.rows[0]![4] as Uint8Array).toString("hex")).toBe("00ff10");
      // Later statements of the session go to the same process: no start-up cost each.
      const started = Date.now();
      for (let index = 0; index < 20; index += 1) await session.query("SELECT 1", "SELECT", 10);
      expect(Date.now() - started).toBeLessThan(SLACK_MS);
      expect(sqliteChildren()).toHaveLength(1);
      const described = await session.describeTable("VALUE KINDS");
      expect(described?.rowCount).toBe(2);
      expect(described?.columns.map((column) => column.name)).toEqual(["whole", "real", "text", "untyped", "blob", "big"]);
    } finally {
      await session.close();
    }
    expect(sqliteChildren()).toHaveLength(0);
  });
});

describe("a SQLite reader and the studio's death", () => {
  it("dies with a studio killed by SIGKILL, even in the middle of a statement that would never end", async () => {
    const host = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "sqlite-process-host.fixture.ts"), file], { stdio: ["ignore", "pipe", "inherit"] });
    let said = "";
    host.stdout.setEncoding("utf8");
    host.stdout.on("data", (text: string) => (said += text));
    const exited = new Promise((resolve) => host.once("exit", resolve));
    await waitFor(() => /reader \d+/.test(said) || host.exitCode !== null, 60_000, "the host opening its reader");
    const reader = Number(/reader (\d+)/.exec(said)?.[1]);
    expect(isAlive(reader)).toBe(true);
    host.kill("SIGKILL");
    await exited;
    // Its parent gone, the reader is killed by the kernel (setpriv's parent-death signal), not left counting for ever.
    await waitFor(() => !isAlive(reader), SLACK_MS, "the reader gone after the host's SIGKILL");
  }, 90_000);
});
