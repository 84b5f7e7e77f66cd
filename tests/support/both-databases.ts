import { afterAll, beforeAll } from "vitest";
import type { DatabaseProvider } from "@/lib/persistence/database-provider";
import { openTempDatabase, type TempDatabase } from "@/lib/persistence/temp-database";

/** Both databases a test runs the same code on, in this order. */
export const BOTH_PROVIDERS: readonly DatabaseProvider[] = ["sqlite", "postgresql"];

/** A fresh temporary database of each provider for the test file, opened before its tests and closed after them. */
export function openBothDatabases(): ReadonlyMap<DatabaseProvider, TempDatabase> {
  const databases = new Map<DatabaseProvider, TempDatabase>();
  beforeAll(async () => {
    for (const provider of BOTH_PROVIDERS) databases.set(provider, await openTempDatabase({ provider }));
  });
  afterAll(async () => {
    for (const database of databases.values()) await database.close();
  });
  return databases;
}
