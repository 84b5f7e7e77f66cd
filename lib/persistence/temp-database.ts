import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, type StudioDatabase } from "./database";

/** A temporary folder for a test, removed by `cleanup`. */
export function makeTempFolder(prefix = "studio-test-"): { folder: string; cleanup: () => void } {
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  return { folder, cleanup: () => rmSync(folder, { recursive: true, force: true }) };
}

/**
 * A migrated SQLite file in a fresh temporary folder, for tests and scripts;
 * `close` disconnects and removes it.
 */
export function openTempDatabase(): { database: StudioDatabase; folder: string; filePath: string; close: () => Promise<void> } {
  const { folder, cleanup } = makeTempFolder();
  const filePath = path.join(folder, "studio.db");
  const database = openDatabase(`file:${filePath}`);
  return {
    database,
    folder,
    filePath,
    close: async () => {
      await database.$disconnect();
      cleanup();
    },
  };
}
