import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDate } from "./prepared";
import { postgresDate, postgresPlaceholders, PostgresStatements } from "./postgres-statements";
import { createPostgresDatabase, dropPostgresDatabase } from "./temp-database";

let url: string;
let statements: PostgresStatements;
const logged: string[] = [];

beforeAll(async () => {
  url = await createPostgresDatabase();
  statements = new PostgresStatements(url, (message) => logged.push(message));
});
afterAll(async () => {
  await statements.end();
  await dropPostgresDatabase(url);
});

describe("the PostgreSQL statement pool", () => {
  it("numbers SQLite's placeholders and keeps each statement prepared on its connection", async () => {
    expect(postgresPlaceholders(`SELECT ? AS "a", ? AS "b"`)).toBe(`SELECT $1 AS "a", $2 AS "b"`);
    const prepared = await statements.transaction(async (runner) => {
      await runner.run(`SELECT $1::int + 1 AS "next"`, [1]);
      const { rows } = await runner.run<{ next: number }>(`SELECT $1::int + 1 AS "next"`, [41]);
      expect(rows).toEqual([{ next: 42 }]);
      return (await runner.run<{ statement: string }>(`SELECT "statement" FROM pg_prepared_statements`, [])).rows.map((row) => row.statement);
    });
    expect(prepared).toContain(`SELECT $1::int + 1 AS "next"`);
  });

  it("reads a timestamp without time zone as the UTC instant Prisma writes, whatever the process's zone", async () => {
    const at = "2026-12-01T08:00:00.120Z";
    const { rows } = await statements.run<{ at: unknown; whole: unknown }>(`SELECT $1::timestamp(3) AS "at", $2::timestamp(3) AS "whole"`, [
      postgresDate(at),
      postgresDate("2026-12-01T08:00:00.000Z"),
    ]);
    // Text, not a Date built in local time: PostgreSQL prints "2026-12-01 08:00:00.12" and "2026-12-01 08:00:00".
    expect(typeof rows[0]!.at).toBe("string");
    expect(readDate(rows[0]!.at)).toBe(at);
    expect(readDate(rows[0]!.whole)).toBe("2026-12-01T08:00:00.000Z");
  });

  it("fails a transaction whose connection the server ends, and keeps serving on a new connection", async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const attempt = statements.transaction(async (runner) => {
        const { rows } = await runner.run<{ pid: number }>(`SELECT pg_backend_pid() AS "pid"`, []);
        await admin.query("SELECT pg_terminate_backend($1)", [rows[0]!.pid]);
        // Gone from the server: the connection learns it while idle (an 'error' event) or on the next statement.
        for (;;) {
          const left = await admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1", [rows[0]!.pid]);
          if (left.rowCount === 0) break;
        }
        await runner.run(`SELECT 1 AS "one"`, []);
      });
      await expect(attempt).rejects.toThrow();
      const { rows } = await statements.run<{ one: number }>(`SELECT 1 AS "one"`, []);
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await admin.end();
    }
  });
});
