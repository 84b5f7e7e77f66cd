import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { databaseFilePath } from "./data-folder";
import { databaseProvider } from "./database-provider";

/** One row of Prisma's bookkeeping table, as far as deciding "nothing to do" needs it. */
interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: unknown;
  rolled_back_at: unknown;
}

/**
 * Whether the database at `url` already holds exactly the committed
 * migrations in `migrationsFolder`, as Prisma recorded them in
 * `_prisma_migrations`: every folder applied, finished, not rolled back, with
 * the checksum Prisma stores (the SHA-256 of its migration.sql), and nothing
 * else there (no failed attempt, no migration this studio does not know).
 *
 * Why: a process's start asks Prisma's CLI (`migrate deploy`) even when
 * nothing is pending, which is a second Node process loading the schema
 * engine: about a second on a quiet machine, several beside other work, on
 * every start of every web process and worker. Reading one table answers the
 * common case in milliseconds. Any doubt (no table, no file, a difference of
 * any kind, an error reading) answers false, and the caller asks Prisma, which
 * applies what is pending and refuses what it must (a failed migration),
 * exactly as before.
 */
export async function migrationsUpToDate(url: string, migrationsFolder: string): Promise<boolean> {
  try {
    const committed = committedChecksums(migrationsFolder);
    const rows = databaseProvider(url) === "postgresql" ? await postgresRows(url) : sqliteRows(url);
    return rows !== null && matches(committed, rows);
  } catch {
    return false;
  }
}

/** Each committed migration's folder name and the checksum Prisma records for it. */
function committedChecksums(folder: string): Map<string, string> {
  const checksums = new Map<string, string>();
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const file = path.join(folder, entry.name, "migration.sql");
    if (existsSync(file)) checksums.set(entry.name, createHash("sha256").update(readFileSync(file)).digest("hex"));
  }
  return checksums;
}

function matches(committed: Map<string, string>, rows: readonly AppliedRow[]): boolean {
  const applied = new Set<string>();
  for (const row of rows) {
    // A row rolled back is history Prisma ignores (it applies that migration again); anything else must be a finished, known one.
    if (row.rolled_back_at !== null) continue;
    if (row.finished_at === null || committed.get(row.migration_name) !== row.checksum) return false;
    applied.add(row.migration_name);
  }
  return committed.size > 0 && [...committed.keys()].every((name) => applied.has(name));
}

const QUERY = "SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations";

/** The rows of a SQLite file's bookkeeping table; null when the file or the table is not there yet. */
function sqliteRows(url: string): AppliedRow[] | null {
  const filePath = databaseFilePath(url);
  if (!existsSync(filePath)) return null;
  const database = new Database(filePath, { readonly: true, fileMustExist: true });
  try {
    const table = database.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
    return table ? (database.prepare(QUERY).all() as AppliedRow[]) : null;
  } finally {
    database.close();
  }
}

/** The rows of a PostgreSQL database's bookkeeping table; null when the table is not there yet, or not where this reads. */
async function postgresRows(url: string): Promise<AppliedRow[] | null> {
  // Prisma's `?schema=` puts its tables in another schema than the connection's search path: leave that to Prisma.
  if (new URL(url).searchParams.has("schema")) return null;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const table = await client.query("SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present");
    if (!table.rows[0]?.present) return null;
    return (await client.query<AppliedRow>(QUERY)).rows;
  } finally {
    await client.end();
  }
}
