import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { closeDatabase, getDatabase, openDatabase, prepareDatabase, type StudioDatabase } from "./database";
import { createSqliteDatabase, makeTempFolder, openTempDatabase } from "./temp-database";

async function pragma(database: StudioDatabase, name: string): Promise<unknown> {
  const rows = await database.$queryRawUnsafe<Array<Record<string, unknown>>>(`PRAGMA ${name}`);
  const value = Object.values(rows[0] ?? {})[0];
  return typeof value === "bigint" ? Number(value) : value;
}

describe("database", () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    vi.unstubAllEnvs();
  });

  it("applies the pragmas on the connection Prisma uses, again after a reconnect", async () => {
    const { folder, cleanup } = makeTempFolder();
    cleanups.push(cleanup);
    const database = openDatabase(await createSqliteDatabase(path.join(folder, "studio.db")));
    cleanups.push(() => database.$disconnect());

    const expected = { journal_mode: "wal", synchronous: 1, foreign_keys: 1, busy_timeout: 5000 };
    for (const [name, value] of Object.entries(expected)) expect(await pragma(database, name)).toBe(value);

    await database.$disconnect();
    for (const [name, value] of Object.entries(expected)) expect(await pragma(database, name)).toBe(value);
  });

  it.each(["sqlite", "postgresql"] as const)("opens a migrated %s database that enforces foreign keys", async (provider) => {
    const { database, close } = await openTempDatabase({ provider });
    cleanups.push(close);
    expect(await database.workflow.count()).toBe(0);
    await expect(
      database.workflowVersion.create({ data: { id: "v", workflowId: "missing", version: 1, definition: "{}" } }),
    ).rejects.toThrow(/Foreign key constraint/i);
  });

  it("migrates the data folder's database at the process's start, then keeps one client per process until closed", async () => {
    const { folder, cleanup } = makeTempFolder();
    cleanups.push(cleanup);
    vi.stubEnv("STUDIO_DATA_DIR", path.join(folder, "data"));
    vi.stubEnv("DATABASE_URL", "");
    cleanups.push(() => closeDatabase());

    const first = await prepareDatabase();
    expect(getDatabase()).toBe(first);
    expect(await first.workflow.count()).toBe(0);
    expect(existsSync(path.join(folder, "data", "studio.db"))).toBe(true);

    await closeDatabase();
    const second = getDatabase();
    expect(second).not.toBe(first);
    expect(await second.meta.count()).toBe(0);
  });
});
