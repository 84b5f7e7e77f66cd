import { createHash, randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { disconnectDatabase, openDatabase, type StudioDatabase } from "./database";
import type { DatabaseProvider } from "./database-provider";
import { applyMigrations } from "./migrations";

/** A temporary folder for a test, removed by `cleanup`. */
export function makeTempFolder(prefix = "studio-test-"): { folder: string; cleanup: () => void } {
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  return { folder, cleanup: () => rmSync(folder, { recursive: true, force: true }) };
}

/** The PostgreSQL server tests use: TEST_POSTGRES_URL, else the local one (trust auth). Any database on it will do. */
export const testPostgresUrl = (): string => process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

export interface TempDatabase {
  database: StudioDatabase;
  provider: DatabaseProvider;
  /** The database's URL (`file:…` or `postgresql://…`). */
  url: string;
  /** The SQLite file; null on PostgreSQL. */
  filePath: string | null;
  /** A fresh temporary folder beside it (the SQLite file lives here). */
  folder: string;
  /** Disconnects and removes the database and the folder. */
  close: () => Promise<void>;
}

/**
 * A migrated, empty database for a test or a script: a SQLite file in a fresh
 * temporary folder (the default), or a new PostgreSQL database on the test
 * server. Each is a copy of a template migrated once per set of migrations
 * (with Prisma's `migrate deploy`, as the studio does), so a test pays for a
 * file copy or a CREATE DATABASE, not a migration.
 */
export async function openTempDatabase(options: { provider?: DatabaseProvider } = {}): Promise<TempDatabase> {
  const provider = options.provider ?? "sqlite";
  const { folder, cleanup } = makeTempFolder();
  if (provider === "sqlite") {
    const filePath = path.join(folder, "studio.db");
    copyFileSync(await sqliteTemplate(), filePath);
    const url = `file:${filePath}`;
    const database = openDatabase(url);
    return {
      database,
      provider,
      url,
      filePath,
      folder,
      close: async () => {
        await disconnectDatabase(database);
        cleanup();
      },
    };
  }
  const url = await createPostgresDatabase();
  const database = openDatabase(url);
  return {
    database,
    provider,
    url,
    filePath: null,
    folder,
    close: async () => {
      await disconnectDatabase(database);
      await dropPostgresDatabase(url);
      cleanup();
    },
  };
}

/** Puts a migrated, empty SQLite database at `filePath` (its folder created), for a test that needs the file in a particular place. */
export async function createSqliteDatabase(filePath: string): Promise<string> {
  mkdirSync(path.dirname(filePath), { recursive: true });
  copyFileSync(await sqliteTemplate(), filePath);
  return `file:${filePath}`;
}

/** A short digest of a provider's committed migrations: a template is reused only while they are unchanged. */
function migrationsDigest(provider: DatabaseProvider): string {
  const folder = path.join(process.cwd(), "prisma", provider, "migrations");
  const hash = createHash("sha256");
  for (const name of readdirSync(folder).sort()) {
    const file = path.join(folder, name, "migration.sql");
    if (existsSync(file)) hash.update(name).update(readFileSync(file));
  }
  return hash.digest("hex").slice(0, 16);
}

/** The migrated SQLite template for the current migrations; made once per machine (atomic rename, so parallel test files agree). */
async function sqliteTemplate(): Promise<string> {
  const template = path.join(tmpdir(), `neurosurfer-studio-template-${migrationsDigest("sqlite")}.db`);
  if (existsSync(template)) return template;
  const building = `${template}.${process.pid}.${randomBytes(4).toString("hex")}`;
  await applyMigrations(`file:${building}`);
  renameSync(building, template);
  return template;
}

function serverUrl(database: string): string {
  const url = new URL(testPostgresUrl());
  url.pathname = `/${database}`;
  return url.toString();
}

async function withAdmin<T>(action: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testPostgresUrl() });
  await client.connect();
  try {
    return await action(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh test database's name. Under a test run (STUDIO_TEST_RUN_ID, set by
 * vitest's global setup and scripts/test.sh) the name carries the run's id, so
 * the run's end finds and drops any a test left (scripts/test-leftovers.mjs).
 */
function testDatabaseName(): string {
  const run = process.env.STUDIO_TEST_RUN_ID;
  const runPart = run && /^[a-z0-9]{4,16}$/.test(run) ? `${run}_` : "";
  return `studio_test_${runPart}${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
}

/** A new database copied from the migrated template (made once per set of migrations); its URL. */
export async function createPostgresDatabase(): Promise<string> {
  const template = `studio_template_${migrationsDigest("postgresql")}`;
  const name = testDatabaseName();
  await withAdmin(async (admin) => {
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [template]);
    if (exists.rowCount === 0) {
      const building = `${template}_${randomBytes(4).toString("hex")}`;
      await admin.query(`CREATE DATABASE "${building}"`);
      await applyMigrations(serverUrl(building));
      try {
        await admin.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
      } catch {
        // Another test file made it first.
        await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      }
    }
    // CREATE DATABASE … TEMPLATE fails while another session copies the same template: try again shortly.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        break;
      } catch (error) {
        if (attempt >= 50 || !/being accessed by other users/.test(String(error))) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
      }
    }
  });
  return serverUrl(name);
}

/** An empty database (no tables) on the test server, for a test that wants the studio itself to migrate it; its URL. */
export async function createEmptyPostgresDatabase(): Promise<string> {
  const name = testDatabaseName();
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
  return serverUrl(name);
}

/** Drops a database made by `createPostgresDatabase`, even with connections left open. */
export async function dropPostgresDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^studio_test_[a-z0-9_]+$/.test(name)) throw new Error(`Refusing to drop ${name}: not a test database.`);
  await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
