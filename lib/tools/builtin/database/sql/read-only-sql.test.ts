import { describe, expect, it } from "vitest";
import { checkReadOnlySql } from "./read-only-sql";

function problemOf(sql: string): string {
  const checked = checkReadOnlySql(sql);
  if (checked.ok) throw new Error(`accepted: ${sql}`);
  return checked.problem;
}

describe("checkReadOnlySql", () => {
  it("accepts one read-only statement and strips the trailing semicolon and comments", () => {
    expect(checkReadOnlySql("select * from orders; -- all of them\n")).toEqual({ ok: true, statement: "select * from orders", keyword: "SELECT" });
    expect(checkReadOnlySql("/* report */ WITH t AS (SELECT 1) SELECT * FROM t;;  ")).toMatchObject({ ok: true, keyword: "WITH" });
    expect(checkReadOnlySql("(SELECT 1) UNION (SELECT 2)")).toMatchObject({ ok: true, keyword: "SELECT" });
    for (const sql of ["EXPLAIN SELECT 1", "SHOW search_path", "DESCRIBE orders", "explain analyze select 1"]) {
      expect(checkReadOnlySql(sql).ok, sql).toBe(true);
    }
  });

  it("ignores writing words inside strings, quoted names, comments and dollar quotes", () => {
    const sql = `SELECT 'DROP TABLE x; DELETE', "update", $$INSERT$$, $tag$ ; $tag$, E'it\\'s; delete' -- DELETE\n/* drop /* nested */ ; */ FROM t`;
    expect(checkReadOnlySql(sql)).toMatchObject({ ok: true });
    expect(checkReadOnlySql("SELECT pragma_table_info, set_config('a', 'b', true), replace(x, 'a', 'b') FROM t").ok).toBe(true);
  });

  it("refuses writes, DDL and statements that do not start with a read", () => {
    expect(problemOf("INSERT INTO t VALUES (1)")).toContain("starts with INSERT");
    expect(problemOf("  update t set a = 1")).toContain("starts with UPDATE");
    expect(problemOf("DELETE FROM t")).toContain("starts with DELETE");
    expect(problemOf("DROP TABLE t")).toContain("starts with DROP");
    expect(problemOf("PRAGMA writable_schema = 1")).toContain("starts with PRAGMA");
    expect(problemOf("-- only a comment")).toContain("empty");
  });

  it("refuses writes hidden inside a read", () => {
    expect(problemOf("WITH gone AS (DELETE FROM t RETURNING *) SELECT * FROM gone")).toContain("contains DELETE");
    expect(problemOf("EXPLAIN ANALYZE DELETE FROM t")).toContain("contains DELETE");
    expect(problemOf("SELECT * INTO copy FROM t")).toContain("contains INTO");
    expect(problemOf("SELECT * FROM t FOR UPDATE")).toContain("contains UPDATE");
    expect(problemOf("select update from t")).toContain('put it in double quotes ("update")');
  });

  it("refuses more than one statement", () => {
    expect(problemOf("SELECT 1; DELETE FROM t")).toContain("only one statement");
    expect(problemOf("SELECT 1; SELECT 2")).toContain("only one statement");
  });

  it("refuses unterminated strings and comments rather than guess", () => {
    expect(problemOf("SELECT 'abc")).toContain("never closed");
    expect(problemOf("SELECT 1 /* ; DELETE FROM t")).toContain("never closed");
    expect(problemOf("SELECT $x$ abc")).toContain("never closed");
  });
});
