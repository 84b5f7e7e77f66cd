/**
 * Which database a URL names. SQLite (a `file:` URL, or none) is the embedded
 * default; `postgresql://` or `postgres://` runs every store on PostgreSQL.
 * Each provider has its own schema, migrations (prisma/<provider>/) and
 * generated client (lib/persistence/generated/<provider>).
 */
export const DATABASE_PROVIDERS = ["sqlite", "postgresql"] as const;
export type DatabaseProvider = (typeof DATABASE_PROVIDERS)[number];

export const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//i.test(url);

export function databaseProvider(url: string): DatabaseProvider {
  return isPostgresUrl(url) ? "postgresql" : "sqlite";
}

/** The URL with its password replaced by `***`, for messages and logs. */
export function displayDatabaseUrl(url: string): string {
  if (!isPostgresUrl(url)) return url;
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "postgresql://…";
  }
}
