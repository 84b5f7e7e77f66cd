import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { MigrationError } from "./errors";
import { defaultMigrationsFolder, migrate, readMigrations } from "./migrate";
import { makeTempFolder } from "./temp-database";

const PROJECT = path.resolve(import.meta.dirname, "..", "..");
const MODEL_TABLES = ["Approval", "Grant", "Meta", "Run", "RunEvent", "Secret", "Step", "Workflow", "WorkflowVersion"];

function prisma(args: string[], databaseFile: string): string {
  return execFileSync(path.join(PROJECT, "node_modules", ".bin", "prisma"), args, {
    cwd: PROJECT,
    env: { ...process.env, DATABASE_URL: `file:${databaseFile}`, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** sqlite_master without Prisma's bookkeeping, whitespace normalised, in a stable order. */
function schemaOf(file: string): Array<{ type: string; name: string; tbl_name: string; sql: string | null }> {
  const database = new Database(file, { readonly: true });
  try {
    const rows = database
      .prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE tbl_name <> '_prisma_migrations' ORDER BY type, name")
      .all() as Array<{ type: string; name: string; tbl_name: string; sql: string | null }>;
    // SQLite keeps a table's text as written: a column added by ALTER TABLE leaves "NOT NULL , x" and "x)" where CREATE TABLE has "NOT NULL, x" and "x )".
    return rows.map((row) => ({ ...row, sql: row.sql?.replace(/\s+/g, " ").replace(/ ?, ?/g, ", ").replace(/ ?\)$/, " )").trim() ?? null }));
  } finally {
    database.close();
  }
}

function tables(file: string): string[] {
  return schemaOf(file)
    .filter((row) => row.type === "table")
    .map((row) => row.name);
}

describe("migrate", () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));
  function tempFolder(): string {
    const { folder, cleanup } = makeTempFolder();
    cleanups.push(cleanup);
    return folder;
  }

  it("gives a fresh file every table, and is a no-op the second time", () => {
    const file = path.join(tempFolder(), "data", "studio.db");
    const names = readMigrations().map((migration) => migration.name);
    expect(names.length).toBeGreaterThan(0);

    expect(migrate(file)).toEqual({ applied: names, skipped: [] });
    expect(tables(file)).toEqual(expect.arrayContaining(MODEL_TABLES));

    const database = new Database(file);
    const before = database.prepare(`SELECT * FROM "_prisma_migrations"`).all();
    database.close();
    expect(migrate(file)).toEqual({ applied: [], skipped: names });
    const after = new Database(file);
    expect(after.prepare(`SELECT * FROM "_prisma_migrations"`).all()).toEqual(before);
    expect(after.pragma("journal_mode", { simple: true })).toBe("wal");
    after.close();
  });

  it("records migrations as prisma migrate deploy does, so the Prisma CLI agrees", () => {
    const file = path.join(tempFolder(), "studio.db");
    migrate(file);
    const database = new Database(file);
    const rows = database.prepare(`SELECT * FROM "_prisma_migrations"`).all() as Array<Record<string, unknown>>;
    database.close();
    const [first] = readMigrations();
    expect(rows[0]).toMatchObject({
      migration_name: first?.name,
      checksum: first?.checksum,
      logs: null,
      rolled_back_at: null,
      applied_steps_count: 1,
    });
    expect(rows[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(String(rows[0]?.finished_at)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);

    expect(prisma(["migrate", "status"], file)).toContain("Database schema is up to date!");
    expect(prisma(["migrate", "deploy"], file)).toContain("No pending migrations to apply.");
  });

  it("produces exactly the schema that prisma/schema.prisma describes", () => {
    const folder = tempFolder();
    const migrated = path.join(folder, "migrated.db");
    const fromSchema = path.join(folder, "from-schema.db");
    migrate(migrated);

    const script = prisma(
      ["migrate", "diff", "--from-empty", "--to-schema-datamodel", "prisma/schema.prisma", "--script"],
      path.join(folder, "unused.db"),
    );
    expect(script).toContain("CREATE TABLE");
    const database = new Database(fromSchema);
    database.exec(script);
    database.close();

    expect(schemaOf(migrated)).toEqual(schemaOf(fromSchema));
  });

  it("refuses to start when an applied migration was edited", () => {
    const folder = tempFolder();
    const migrations = path.join(folder, "migrations");
    cpSync(defaultMigrationsFolder(), migrations, { recursive: true });
    const file = path.join(folder, "studio.db");
    migrate(file, { migrationsFolder: migrations });

    const [first] = readMigrations(migrations);
    writeFileSync(path.join(migrations, first!.name, "migration.sql"), `${first!.sql}\n-- edited\n`);
    expect(() => migrate(file, { migrationsFolder: migrations })).toThrow(MigrationError);
    expect(() => migrate(file, { migrationsFolder: migrations })).toThrow(
      new RegExp(`Migration ${first!.name} was changed after it was applied.*new migration`),
    );
  });

  it("rolls a failing migration back, records it as rolled back, and retries it once fixed", () => {
    const folder = tempFolder();
    const migrations = path.join(folder, "migrations");
    cpSync(defaultMigrationsFolder(), migrations, { recursive: true });
    const file = path.join(folder, "studio.db");
    migrate(file, { migrationsFolder: migrations });

    const broken = path.join(migrations, "29990101000000_broken");
    mkdirSync(broken);
    writeFileSync(path.join(broken, "migration.sql"), `CREATE TABLE "Half" ("id" TEXT);\nINSERT INTO "Nowhere" VALUES (1);\n`);
    expect(() => migrate(file, { migrationsFolder: migrations })).toThrow(/Migration 29990101000000_broken failed.*no such table: Nowhere.*Nothing of it was applied/);
    expect(tables(file)).not.toContain("Half");

    const database = new Database(file);
    const row = database.prepare(`SELECT * FROM "_prisma_migrations" WHERE migration_name = ?`).get("29990101000000_broken") as Record<string, unknown>;
    database.close();
    expect(row).toMatchObject({ finished_at: null, applied_steps_count: 0 });
    expect(row.rolled_back_at).not.toBeNull();
    expect(String(row.logs)).toContain("no such table: Nowhere");

    writeFileSync(path.join(broken, "migration.sql"), `CREATE TABLE "Half" ("id" TEXT);\n`);
    expect(migrate(file, { migrationsFolder: migrations }).applied).toEqual(["29990101000000_broken"]);
    expect(tables(file)).toContain("Half");
  });

  it("keeps child rows through a Prisma table redefinition (foreign keys off outside the transaction)", () => {
    const folder = tempFolder();
    const migrations = path.join(folder, "migrations");
    cpSync(defaultMigrationsFolder(), migrations, { recursive: true });
    const file = path.join(folder, "studio.db");
    migrate(file, { migrationsFolder: migrations });

    const seed = new Database(file);
    seed.exec(`INSERT INTO "Workflow" (id, name, updatedAt) VALUES ('w1', 'One', CURRENT_TIMESTAMP);
      INSERT INTO "WorkflowVersion" (id, workflowId, version, definition) VALUES ('v1', 'w1', 1, '{}');`);
    seed.close();

    // What Prisma generates when a column changes nullability: a redefinition
    // that drops and recreates "Workflow", which "WorkflowVersion" references.
    const changed = path.join(folder, "changed.prisma");
    writeFileSync(
      changed,
      execFileSync("cat", [path.join(PROJECT, "prisma", "schema.prisma")], { encoding: "utf8" }).replace(
        'description   String            @default("")',
        "description   String?",
      ),
    );
    const script = prisma(
      ["migrate", "diff", "--from-schema-datamodel", "prisma/schema.prisma", "--to-schema-datamodel", changed, "--script"],
      path.join(folder, "unused.db"),
    );
    expect(script).toContain('DROP TABLE "Workflow"');
    mkdirSync(path.join(migrations, "29990101000000_redefine"));
    writeFileSync(path.join(migrations, "29990101000000_redefine", "migration.sql"), script);

    expect(migrate(file, { migrationsFolder: migrations }).applied).toEqual(["29990101000000_redefine"]);
    const database = new Database(file);
    expect(database.prepare(`SELECT id FROM "WorkflowVersion"`).all()).toEqual([{ id: "v1" }]);
    expect(database.prepare(`SELECT description FROM "Workflow"`).get()).toEqual({ description: "" });
    expect(database.prepare("PRAGMA foreign_key_check").all()).toEqual([]);
    database.close();
  });

  it("refuses a database migrated by a newer studio", () => {
    const folder = tempFolder();
    const migrations = path.join(folder, "migrations");
    cpSync(defaultMigrationsFolder(), migrations, { recursive: true });
    mkdirSync(path.join(migrations, "29990101000000_future"));
    writeFileSync(path.join(migrations, "29990101000000_future", "migration.sql"), `CREATE TABLE "Future" ("id" TEXT);\n`);
    const file = path.join(folder, "studio.db");
    migrate(file, { migrationsFolder: migrations });
    expect(() => migrate(file)).toThrow(/has migrations this version of the studio does not have \(29990101000000_future\)/);
  });
});
