import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { databaseFilePath, databaseUrl, dataFolder } from "./data-folder";
import { makeTempFolder } from "./temp-database";

describe("data folder", () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

  it("creates STUDIO_DATA_DIR on demand with mode 0700", () => {
    const { folder, cleanup } = makeTempFolder();
    cleanups.push(cleanup);
    const target = path.join(folder, "nested", "data");
    expect(dataFolder({ STUDIO_DATA_DIR: target })).toBe(target);
    expect(statSync(target).mode & 0o777).toBe(0o700);
  });

  it("defaults to <cwd>/.data and the database to studio.db in it", () => {
    const { folder, cleanup } = makeTempFolder();
    cleanups.push(cleanup);
    const previous = process.cwd();
    process.chdir(folder);
    try {
      expect(databaseUrl({})).toBe(`file:${path.join(folder, ".data", "studio.db")}`);
      expect(existsSync(path.join(folder, ".data"))).toBe(true);
    } finally {
      process.chdir(previous);
    }
  });

  it("prefers DATABASE_URL", () => {
    expect(databaseUrl({ DATABASE_URL: "file:/srv/studio.db" })).toBe("file:/srv/studio.db");
  });

  it("reads a file URL like the adapter does", () => {
    expect(databaseFilePath("file:/srv/studio.db")).toBe("/srv/studio.db");
    expect(databaseFilePath("file:./studio.db")).toBe(path.resolve("studio.db"));
    expect(() => databaseFilePath("postgres://x")).toThrow(/SQLite file URL/);
  });
});
