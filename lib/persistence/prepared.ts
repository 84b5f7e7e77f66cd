import type BetterSqlite3 from "better-sqlite3";

/*
 * Prepared statements on Prisma's own SQLite connection (see sqliteConnection in
 * database.ts), for the hot paths where a Prisma query, compiled anew each time,
 * costs milliseconds. They read and write what Prisma would, in the formats its
 * SQLite adapter uses (JSON as text, DateTime as ISO 8601 text with +00:00).
 */

/** The SQLite text Prisma's adapter stores for a DateTime. */
export const sqliteDate = (value: string): string => new Date(value).toISOString().replace("Z", "+00:00");

/** A DateTime as read back: ISO text (Prisma's), SQLite's CURRENT_TIMESTAMP (UTC), or epoch milliseconds. */
export function readDate(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number" || typeof value === "bigint") return new Date(Number(value)).toISOString();
  const text = String(value);
  return (/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?$/.test(text) ? new Date(`${text.replace(" ", "T")}Z`) : new Date(text)).toISOString();
}

// On globalThis: the production build has several copies of this module (see database.ts), and one cache per connection is enough.
const STATEMENTS_KEY = Symbol.for("neurosurfer.prepared-statements");
const statementCaches: WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>> = ((
  globalThis as { [STATEMENTS_KEY]?: WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>> }
)[STATEMENTS_KEY] ??= new WeakMap());

/** A prepared statement, cached per connection; integers read as numbers (the adapter turns on BigInts). */
export function statement(database: BetterSqlite3.Database, sql: string): BetterSqlite3.Statement {
  let cache = statementCaches.get(database);
  if (!cache) {
    cache = new Map();
    statementCaches.set(database, cache);
  }
  let prepared = cache.get(sql);
  if (!prepared) {
    prepared = database.prepare(sql);
    if (prepared.reader) prepared.safeIntegers(false);
    cache.set(sql, prepared);
  }
  return prepared;
}

