import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { MigrationError } from "./errors";

/**
 * Applies the committed migrations (prisma/migrations/<name>/migration.sql) at
 * studio start, without spawning the Prisma CLI. It keeps Prisma's own
 * bookkeeping table, so `prisma migrate status` and `prisma migrate deploy`
 * agree with it afterwards.
 */

/** The table exactly as Prisma's schema engine creates it on SQLite. */
const MIGRATIONS_TABLE_SQL = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

export interface Migration {
  /** The folder name, e.g. `20261129000000_init`; folders apply in name order. */
  name: string;
  sql: string;
  /** SHA-256 of the file, hex: what Prisma records. */
  checksum: string;
}

export interface MigrateOptions {
  /** Default `<working directory>/prisma/migrations`. */
  migrationsFolder?: string;
}

export interface MigrateResult {
  /** Migrations applied by this call, in order. */
  applied: string[];
  /** Migrations that were already in the database. */
  skipped: string[];
}

interface MigrationRow {
  id: string;
  checksum: string;
  finished_at: string | null;
  migration_name: string;
  logs: string | null;
  rolled_back_at: string | null;
  started_at: string;
}

export function defaultMigrationsFolder(): string {
  return path.join(process.cwd(), "prisma", "migrations");
}

/** The committed migrations, sorted by folder name. */
export function readMigrations(folder: string = defaultMigrationsFolder()): Migration[] {
  if (!existsSync(/*turbopackIgnore: true*/ folder)) {
    throw new MigrationError(`No migrations folder at ${folder}. Start the studio from its project folder (where prisma/ is).`);
  }
  return readdirSync(/*turbopackIgnore: true*/ folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(/*turbopackIgnore: true*/ folder, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(/*turbopackIgnore: true*/ folder, name, "migration.sql"), "utf8");
      return { name, sql, checksum: sha256(sql) };
    });
}

/**
 * Brings the SQLite file at `filePath` up to the committed migrations: each
 * missing one runs in its own transaction and is recorded in
 * `_prisma_migrations` as `prisma migrate deploy` would record it. Refuses
 * (MigrationError) when an applied migration's file changed, when a migration
 * was left half-applied, or when the database knows migrations this code does not.
 */
export function migrate(filePath: string, options: MigrateOptions = {}): MigrateResult {
  const migrations = readMigrations(options.migrationsFolder);
  mkdirSync(path.dirname(filePath), { recursive: true, mode: 0o700 });
  const database = new Database(filePath, { timeout: 5000 });
  try {
    database.pragma("journal_mode = WAL");
    // Prisma's table-redefining migrations switch foreign keys off themselves,
    // but that pragma is ignored inside a transaction. better-sqlite3 turns
    // them on by default, and then DROP TABLE would cascade into child rows.
    database.pragma("foreign_keys = OFF");
    database.exec(MIGRATIONS_TABLE_SQL);
    checkHistory(database, migrations, filePath);

    const result: MigrateResult = { applied: [], skipped: [] };
    for (const migration of migrations) {
      if (applyOne(database, migration, filePath)) result.applied.push(migration.name);
      else result.skipped.push(migration.name);
    }
    return result;
  } finally {
    database.close();
  }
}

function checkHistory(database: Database.Database, migrations: Migration[], filePath: string): void {
  const rows = database
    .prepare(`SELECT * FROM "_prisma_migrations" WHERE "rolled_back_at" IS NULL ORDER BY "started_at"`)
    .all() as MigrationRow[];
  const local = new Map(migrations.map((migration) => [migration.name, migration]));

  const unfinished = rows.find((row) => row.finished_at === null);
  if (unfinished) {
    throw new MigrationError(
      `Migration ${unfinished.migration_name} started on ${filePath} at ${unfinished.started_at} and did not finish` +
        (unfinished.logs ? ` (${firstLine(unfinished.logs)})` : "") +
        `. The database may be half-migrated, so the studio will not start on it. Check the database, then run ` +
        `\`npx prisma migrate resolve --rolled-back ${unfinished.migration_name}\` (if nothing of it remains) or ` +
        `\`--applied\` (if it fully took effect), with DATABASE_URL=file:${filePath}.`,
      unfinished.migration_name,
    );
  }

  const unknown = rows.filter((row) => !local.has(row.migration_name)).map((row) => row.migration_name);
  if (unknown.length > 0) {
    throw new MigrationError(
      `The database ${filePath} has migrations this version of the studio does not have (${unknown.join(", ")}): ` +
        `a newer version migrated it. Run that newer version, or restore a backup made before the upgrade.`,
      unknown[0],
    );
  }

  for (const row of rows) {
    const migration = local.get(row.migration_name);
    if (migration && !checksumMatches(migration.sql, row.checksum)) {
      throw new MigrationError(
        `Migration ${row.migration_name} was changed after it was applied to ${filePath} ` +
          `(recorded checksum ${row.checksum}, file now ${migration.checksum}). Applied migrations must never be edited: ` +
          `restore prisma/migrations/${row.migration_name}/migration.sql (git checkout -- that file) and put the change ` +
          `in a new migration (npm run db:migration -- <name>).`,
        row.migration_name,
      );
    }
  }
}

/** Applies one migration unless it is already recorded; true when it applied it. */
function applyOne(database: Database.Database, migration: Migration, filePath: string): boolean {
  // IMMEDIATE takes the write lock first, so two processes starting together
  // cannot both apply the same migration: the second sees the first's row.
  database.exec("BEGIN IMMEDIATE");
  const id = randomUUID();
  try {
    const existing = database
      .prepare(
        `SELECT 1 FROM "_prisma_migrations" WHERE "migration_name" = ? AND "rolled_back_at" IS NULL AND "finished_at" IS NOT NULL`,
      )
      .get(migration.name);
    if (existing) {
      database.exec("COMMIT");
      return false;
    }
    database
      .prepare(
        `INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "started_at", "applied_steps_count") VALUES (?, ?, ?, ?, 0)`,
      )
      .run(id, migration.checksum, migration.name, prismaTimestamp());
    database.exec(migration.sql);
    const violations = database.prepare("PRAGMA foreign_key_check").all() as Array<{ table: string; parent: string }>;
    if (violations.length > 0) {
      const first = violations[0];
      throw new Error(
        `it leaves ${violations.length} row(s) whose foreign key points at nothing (first: ${first?.table} -> ${first?.parent})`,
      );
    }
    database
      .prepare(`UPDATE "_prisma_migrations" SET "finished_at" = ?, "applied_steps_count" = 1 WHERE "id" = ?`)
      .run(prismaTimestamp(), id);
    database.exec("COMMIT");
    return true;
  } catch (error) {
    if (database.inTransaction) database.exec("ROLLBACK");
    const reason = error instanceof Error ? error.message : String(error);
    // Recorded as rolled back (which it was), so `prisma migrate status` shows
    // the attempt and the next start retries the fixed migration.
    const now = prismaTimestamp();
    database
      .prepare(
        `INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "logs", "started_at", "rolled_back_at", "applied_steps_count") VALUES (?, ?, ?, ?, ?, ?, 0)`,
      )
      .run(id, migration.checksum, migration.name, reason, now, now);
    throw new MigrationError(
      `Migration ${migration.name} failed on ${filePath}: ${reason}. Nothing of it was applied (it ran in a transaction). ` +
        `Fix prisma/migrations/${migration.name}/migration.sql and start the studio again.`,
      migration.name,
    );
  }
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** Like Prisma: a checkout that only changed line endings (git autocrlf) still matches. */
function checksumMatches(sql: string, checksum: string): boolean {
  const lf = sql.replace(/\r\n/g, "\n");
  return [sql, lf, lf.replace(/\n/g, "\r\n")].some((variant) => sha256(variant) === checksum);
}

/** Prisma's format on SQLite: RFC 3339 with milliseconds, e.g. `2026-11-29T23:42:01.198+00:00`. */
function prismaTimestamp(): string {
  return new Date().toISOString().replace(/Z$/, "+00:00");
}

function firstLine(text: string): string {
  return text.split("\n", 1)[0] ?? "";
}
