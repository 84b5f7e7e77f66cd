import { mkdirSync } from "node:fs";
import path from "node:path";
import { readEnvironment } from "@/lib/env";

type EnvironmentSource = Readonly<Record<string, string | undefined>>;

/**
 * The studio's data folder: STUDIO_DATA_DIR, else `<working directory>/.data`.
 * Created on first use with mode 0700, since it holds the database and the
 * secret key.
 */
export function dataFolder(source: EnvironmentSource = process.env): string {
  const folder = path.resolve(/*turbopackIgnore: true*/ readEnvironment(source).STUDIO_DATA_DIR ?? path.join(process.cwd(), ".data"));
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  return folder;
}

/** The database URL: DATABASE_URL, else `file:<data folder>/studio.db`. */
export function databaseUrl(source: EnvironmentSource = process.env): string {
  return readEnvironment(source).DATABASE_URL ?? `file:${path.join(dataFolder(source), "studio.db")}`;
}

/**
 * The absolute file path of a `file:` URL, read the way the better-sqlite3
 * adapter reads it (the prefix dropped, relative to the working directory).
 */
export function databaseFilePath(url: string): string {
  if (!url.startsWith("file:") || url === "file::memory:") {
    throw new Error(`Expected a SQLite file URL such as file:/var/lib/studio/studio.db, got "${url}".`);
  }
  return path.resolve(/*turbopackIgnore: true*/ url.slice("file:".length));
}
