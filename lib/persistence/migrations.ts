import { execFile } from "node:child_process";
import path from "node:path";
import { databaseProvider, displayDatabaseUrl } from "./database-provider";
import { MigrationError } from "./errors";
import { migrationsUpToDate } from "./migration-status";

/**
 * Brings the database at `url` up to the committed migrations of its provider
 * (prisma/<provider>/migrations) with Prisma's own `prisma migrate deploy`,
 * run as a child process on the WebAssembly engine (prisma.config.ts; no
 * binary is downloaded). It is what the studio, the worker and the CLI do
 * before opening a database, so a fresh data folder or an empty PostgreSQL
 * database becomes a working one with no command to run. When the database's
 * bookkeeping already holds exactly the committed migrations
 * (`migrationsUpToDate`) it returns without starting Prisma, which costs about
 * a second on a 2-core machine even when nothing is pending.
 *
 * Prisma keeps the bookkeeping (`_prisma_migrations`), refuses a database with
 * a failed migration, and on PostgreSQL takes an advisory lock, so
 * several processes starting at once apply each migration once.
 */
export async function applyMigrations(url: string, options: { projectRoot?: string } = {}): Promise<{ applied: string[] }> {
  const root = options.projectRoot ?? process.cwd();
  const migrationsFolder = path.join(/*turbopackIgnore: true*/ root, "prisma", databaseProvider(url), "migrations");
  if (await migrationsUpToDate(url, migrationsFolder)) return { applied: [] };
  const cli = path.join(/*turbopackIgnore: true*/ root, "node_modules", "prisma", "build", "index.js");
  const args = [cli, "migrate", "deploy", "--config", path.join(/*turbopackIgnore: true*/ root, "prisma.config.ts")];
  const environment = { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1", NO_COLOR: "1" };
  const output = await new Promise<string>((resolve, reject) => {
    execFile(process.execPath, args, { cwd: root, env: environment, maxBuffer: 8 * 1024 * 1024 }, (error, stdout, stderr) => {
      const text = `${stdout}${stderr}`;
      if (error) {
        reject(
          new MigrationError(
            `Could not bring the ${databaseProvider(url)} database at ${displayDatabaseUrl(url)} up to this studio's migrations ` +
              `(prisma migrate deploy failed). Prisma said:\n${text.trim() || error.message}`,
          ),
        );
      } else resolve(text);
    });
  });
  return { applied: appliedMigrations(output) };
}

/** The migration names Prisma lists after "have been applied:", from its tree ("└─ 2026…_init/"). */
export function appliedMigrations(output: string): string[] {
  const start = output.search(/have been applied:/);
  if (start === -1) return [];
  return [...output.slice(start).matchAll(/[└├]─ (\d{14}_[A-Za-z0-9_]+)\//g)].map((match) => match[1]!);
}
