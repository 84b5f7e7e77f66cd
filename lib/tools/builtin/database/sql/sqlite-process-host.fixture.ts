/**
 * A stand-in for the studio in sqlite-timeout.test.ts: opens the SQLite file
 * given as its argument in a SqliteProcess, prints the reading process's pid,
 * starts a query that never ends, and waits to be killed.
 */
import { SqliteProcess } from "./sqlite-process";

const file = process.argv[2];
if (!file) throw new Error("give the SQLite file as the first argument");
async function main(sqliteFile: string): Promise<void> {
  const reader = new SqliteProcess(new AbortController().signal);
  await reader.request({ operation: "open", file: sqliteFile }, 60_000, "opening took too long");
  void reader.request({ operation: "query", sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c", limit: 10, maxBytes: 1_000_000 }, 600_000, "too long").catch(() => undefined);
  process.stdout.write(`reader ${reader.pid}\n`);
  setInterval(() => undefined, 60_000);
}

void main(file);
