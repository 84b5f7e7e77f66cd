import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { disconnectDatabase, openDatabase } from "./database";
import type { DatabaseProvider } from "./database-provider";
import { MigrationError } from "./errors";
import { migrationsUpToDate } from "./migration-status";
import { appliedMigrations, applyMigrations } from "./migrations";
import { createEmptyPostgresDatabase, dropPostgresDatabase, makeTempFolder } from "./temp-database";

const PROJECT = path.resolve(import.meta.dirname, "../..");
const PRISMA = path.join(PROJECT, "node_modules", "prisma", "build", "index.js");

function prisma(args: string[], url: string): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [PRISMA, ...args], {
    cwd: PROJECT,
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1", NO_COLOR: "1" },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const committed = (provider: DatabaseProvider) =>
  readdirSync(path.join(PROJECT, "prisma", provider, "migrations"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

describe("migrations", () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function emptyDatabase(provider: DatabaseProvider): Promise<string> {
    const { folder, cleanup } = makeTempFolder();
    cleanups.push(cleanup);
    if (provider === "sqlite") return `file:${path.join(folder, "studio.db")}`;
    const url = await createEmptyPostgresDatabase();
    cleanups.push(() => dropPostgresDatabase(url));
    return url;
  }

  it("keeps each provider's schema generated from prisma/models.prisma", () => {
    expect(() => execFileSync(process.execPath, ["scripts/prisma-schemas.mjs", "--check"], { cwd: PROJECT, stdio: "pipe" })).not.toThrow();
  });

  it.each(["sqlite", "postgresql"] as const)(
    "brings an empty %s database to exactly its schema with Prisma's migrate deploy, once",
    async (provider) => {
      const url = await emptyDatabase(provider);
      expect(await applyMigrations(url)).toEqual({ applied: committed(provider) });
      expect(await applyMigrations(url)).toEqual({ applied: [] });
      expect(prisma(["migrate", "status"], url).output).toContain("Database schema is up to date!");

      // What the migrations built, read back from the database, against the schema: no difference.
      const pulled = path.join(makeTempFolder().folder, "pulled.prisma");
      writeFileSync(pulled, `datasource db {\n  provider = "${provider}"\n  url      = env("DATABASE_URL")\n}\n`);
      expect(prisma(["db", "pull", "--schema", pulled], url).status).toBe(0);
      const diff = prisma(
        ["migrate", "diff", "--from-schema-datamodel", pulled, "--to-schema-datamodel", `prisma/${provider}/schema.prisma`, "--exit-code"],
        url,
      );
      expect(diff.output).toContain("No difference detected");
      expect(diff.status).toBe(0);
    },
    // Five runs of Prisma's CLI (a few seconds each when quiet, ten times that beside other work): a ceiling, not a wait.
    180_000,
  );

  it.each(["sqlite", "postgresql"] as const)(
    "skips Prisma when %s's bookkeeping holds exactly the committed migrations, and asks it at any difference",
    async (provider) => {
      const url = await emptyDatabase(provider);
      const folder = path.join(PROJECT, "prisma", provider, "migrations");
      // Nothing there yet (no file, or no table): Prisma must run.
      expect(await migrationsUpToDate(url, folder)).toBe(false);
      await applyMigrations(url);
      expect(await migrationsUpToDate(url, folder)).toBe(true);

      const database = openDatabase(url);
      cleanups.push(() => disconnectDatabase(database));
      const newest = committed(provider).at(-1)!;
      const run = (sql: string) => database.$executeRawUnsafe(sql);
      // An applied migration whose file was edited since: Prisma's to judge.
      await run(`UPDATE _prisma_migrations SET checksum = 'edited' WHERE migration_name = '${newest}'`);
      expect(await migrationsUpToDate(url, folder)).toBe(false);
      // A failed attempt (started, never finished): Prisma's to report.
      const checksum = createHash("sha256").update(readFileSync(path.join(folder, newest, "migration.sql"))).digest("hex");
      await run(`UPDATE _prisma_migrations SET checksum = '${checksum}', finished_at = NULL WHERE migration_name = '${newest}'`);
      expect(await migrationsUpToDate(url, folder)).toBe(false);
      // A migration this studio does not have (a newer studio ran here): Prisma's to judge.
      await run(`UPDATE _prisma_migrations SET finished_at = started_at WHERE migration_name = '${newest}'`);
      expect(await migrationsUpToDate(url, folder)).toBe(true);
      await run(
        `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count) ` +
          `SELECT 'newer', checksum, '29990101000000_from_the_future', started_at, finished_at, 1 FROM _prisma_migrations WHERE migration_name = '${newest}'`,
      );
      expect(await migrationsUpToDate(url, folder)).toBe(false);
      // A pending migration (one row missing): Prisma applies it.
      await run(`DELETE FROM _prisma_migrations WHERE id = 'newer' OR migration_name = '${newest}'`);
      expect(await migrationsUpToDate(url, folder)).toBe(false);
    },
    180_000,
  );

  it("stops with a MigrationError that names the database and keeps Prisma's reason", async () => {
    const error = await applyMigrations("postgresql://postgres@127.0.0.1:1/nowhere").catch((caught: unknown) => caught);
    expect(MigrationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/postgresql database at postgresql:\/\/postgres@127\.0\.0\.1:1\/nowhere/);
    expect((error as Error).message).toContain("Prisma said:");
  });

  it("reads the applied migrations from Prisma's report", () => {
    const report = "The following migration(s) have been applied:\n\nmigrations/\n  └─ 20261129000000_init/\n    └─ migration.sql\n  └─ 20261130010000_agent_checkpoints/\n";
    expect(appliedMigrations(report)).toEqual(["20261129000000_init", "20261130010000_agent_checkpoints"]);
    expect(appliedMigrations("No pending migrations to apply.")).toEqual([]);
  });
});
