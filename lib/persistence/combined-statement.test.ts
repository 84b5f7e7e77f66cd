import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { combineWrites } from "./combined-statement";
import { createEmptyPostgresDatabase, dropPostgresDatabase } from "./temp-database";

/** Several writes as one statement, on a real PostgreSQL: all of them or none, in one round trip. */

let url: string;
let client: pg.Client;

beforeAll(async () => {
  url = await createEmptyPostgresDatabase();
  client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`CREATE TABLE parent (id text PRIMARY KEY); CREATE TABLE child (id text PRIMARY KEY, parent text NOT NULL REFERENCES parent (id))`);
}, 60_000);

afterAll(async () => {
  await client?.end();
  if (url) await dropPostgresDatabase(url);
});

const parent = (id: string) => ({ sql: `INSERT INTO parent (id) VALUES (?)`, values: [id] });
const child = (id: string, of: string) => ({ sql: `INSERT INTO child (id, parent) VALUES (?, ?)`, values: [id, of] });
const announce = (channel: string, payload: string) => ({ sql: `SELECT pg_notify(?, ?)`, values: [channel, payload] });

describe("combineWrites", () => {
  it("numbers the placeholders across the writes and counts what the SELECTs among them return", () => {
    const { text, values } = combineWrites([parent("p"), announce("c", "x"), child("k", "p")]);
    expect(values).toEqual(["p", "c", "x", "k", "p"]);
    expect(text).toContain(`INSERT INTO parent (id) VALUES ($1)`);
    expect(text).toContain(`SELECT pg_notify($2, $3)`);
    expect(text).toContain(`INSERT INTO child (id, parent) VALUES ($4, $5)`);
    expect(text).toMatch(/SELECT \(SELECT count\(\*\) FROM "write_1"\) AS "done"$/);
  });

  it("writes a row that names another the same statement inserts, and sends its notification on commit", async () => {
    const listener = new pg.Client({ connectionString: url });
    await listener.connect();
    const heard: string[] = [];
    listener.on("notification", (message) => heard.push(message.payload ?? ""));
    await listener.query("LISTEN combined");
    try {
      const { text, values } = combineWrites([parent("p1"), child("c1", "p1"), announce("combined", "p1 written")]);
      await client.query(text, values);
      expect((await client.query("SELECT id, parent FROM child")).rows).toEqual([{ id: "c1", parent: "p1" }]);
      await expect.poll(() => heard).toEqual(["p1 written"]);
    } finally {
      await listener.end();
    }
  });

  it("writes nothing of a statement one of whose writes fails", async () => {
    const { text, values } = combineWrites([parent("p2"), child("c2", "p2"), child("c3", "nobody")]);
    await expect(client.query(text, values)).rejects.toThrow(/foreign key/);
    expect((await client.query("SELECT id FROM parent WHERE id = 'p2'")).rows).toEqual([]);
    expect((await client.query("SELECT id FROM child WHERE id IN ('c2', 'c3')")).rows).toEqual([]);
  });

  it("refuses a write with its own WITH", () => {
    expect(() => combineWrites([{ sql: "WITH x AS (SELECT 1) SELECT * FROM x", values: [] }])).toThrow(/WITH/);
  });

  it("says which write that must change a row changed none, and a transaction it throws in keeps nothing of the statement", async () => {
    await client.query("INSERT INTO parent (id) VALUES ('fenced')");
    const rename = (from: string, to: string, message: string) => ({ sql: `UPDATE parent SET id = ? WHERE id = ?`, values: [to, from], mustChange: message });
    const changed = combineWrites([rename("fenced", "renamed", "first"), child("c4", "renamed")]);
    expect(changed.text).toMatch(/^SELECT \(SELECT count\(\*\) FROM "write_0"\) AS "changed_0", 1 AS "done"$/m);
    const first = await client.query(changed.text, changed.values);
    expect(changed.unchanged(first.rows[0])).toBeNull();
    const missed = combineWrites([child("c5", "renamed"), rename("nobody", "x", "the row is gone"), announce("combined", "never")]);
    await client.query("BEGIN");
    const second = await client.query(missed.text, missed.values);
    expect(missed.unchanged(second.rows[0])).toBe("the row is gone");
    // What the caller does with that message: throw, and the transaction (with the child the statement wrote) is undone.
    await client.query("ROLLBACK");
    expect((await client.query("SELECT id FROM child WHERE id IN ('c4', 'c5') ORDER BY id")).rows).toEqual([{ id: "c4" }]);
  });
});
