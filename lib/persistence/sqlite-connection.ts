import type BetterSqlite3 from "better-sqlite3";

/**
 * The SQLite connection under a client from `openDatabase`, for a hot write
 * path that runs prepared statements instead of Prisma queries (each of which
 * is compiled anew). `transaction()` takes the same lock Prisma's own
 * transactions take and issues BEGIN; the caller runs its statements, COMMIT
 * (or ROLLBACK), then `release()`s. Null for other clients.
 */
export interface SqliteConnection {
  database: BetterSqlite3.Database;
  transaction(): Promise<{ release: () => Promise<void> }>;
}
