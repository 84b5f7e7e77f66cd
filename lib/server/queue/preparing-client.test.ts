import pg from "pg";
import { describe, expect, it } from "vitest";
import { testPostgresUrl } from "@/lib/persistence/temp-database";
import { PreparingClient } from "./preparing-client";

/** The job queue's connections on a real PostgreSQL: what they prepare, and what they send as it is. */
describe("PreparingClient", () => {
  it("prepares a statement with parameters once per connection, sends one without as it is (several commands too), and works in a pool", async () => {
    const client = new PreparingClient({ connectionString: testPostgresUrl() });
    await client.connect();
    try {
      const prepared = async () => (await client.query("SELECT name, statement FROM pg_prepared_statements ORDER BY name")).rows as { name: string; statement: string }[];
      expect(await prepared()).toEqual([]);
      const text = "SELECT $1::int + $2::int AS sum";
      for (const [left, right] of [[1, 2], [40, 2]] as const) {
        const { rows } = await client.query(text, [left, right]);
        expect(rows).toEqual([{ sum: left + right }]);
      }
      // Once, under the name the studio's own statements use, for both calls.
      expect((await prepared()).map((row) => row.statement)).toEqual([text]);
      expect((await prepared())[0]!.name).toMatch(/^studio_[0-9a-f]{24}$/);
      // Several commands in one text, without parameters (pg-boss's locked transactions): not preparable, sent as is.
      await client.query("BEGIN; SELECT 1; COMMIT;");
      expect(await prepared()).toHaveLength(1);
      // A callback, as pg's pool passes one.
      const viaCallback = await new Promise<unknown>((resolve, reject) =>
        client.query(text, [2, 3], (error: Error | null, result: pg.QueryResult) => (error ? reject(error) : resolve(result.rows))),
      );
      expect(viaCallback).toEqual([{ sum: 5 }]);
    } finally {
      await client.end();
    }
    const pool = new pg.Pool({ connectionString: testPostgresUrl(), max: 1, Client: PreparingClient });
    try {
      await pool.query("SELECT $1::text AS word", ["pooled"]);
      const { rows } = await pool.query("SELECT count(*)::int AS count FROM pg_prepared_statements WHERE statement = $1", ["SELECT $1::text AS word"]);
      expect(rows).toEqual([{ count: 1 }]);
    } finally {
      await pool.end();
    }
  });
});
