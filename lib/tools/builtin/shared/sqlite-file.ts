import type BetterSqlite3 from "better-sqlite3";

export type SqliteDatabase = BetterSqlite3.Database;

/** The first 16 bytes of every SQLite 3 database file. */
export const SQLITE_MAGIC = "SQLite format 3\u0000";

/**
 * Opens a SQLite file read-only; it must exist. The driver is loaded here,
 * not at import time, so pages that only list tools do not load native code.
 */
export async function openSqliteReadOnly(file: string): Promise<SqliteDatabase> {
  const { default: Database } = await import("better-sqlite3");
  const database = new Database(file, { readonly: true, fileMustExist: true });
  try {
    // Reading the schema fails fast on a file that is not a database ("file is not a database").
    database.prepare("SELECT count(*) FROM sqlite_schema").get();
    // A second guard besides the read-only handle: this connection refuses writes to any attached file too.
    database.pragma("query_only = ON");
  } catch (error) {
    database.close();
    throw error;
  }
  return database;
}

/** `name` quoted as a SQLite identifier. */
export function quoteSqliteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export interface SqliteTableInfo {
  name: string;
  kind: "table" | "view";
}

/** The tables and views a user made, by name; SQLite's internal tables are left out. */
export function listSqliteTables(database: SqliteDatabase): SqliteTableInfo[] {
  return database.prepare(SQLITE_TABLES_QUERY).all() as SqliteTableInfo[];
}

/** The query behind `listSqliteTables`, for a connection held elsewhere (the sql tool's child process). */
export const SQLITE_TABLES_QUERY =
  "SELECT name, type AS kind FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name";

export interface SqliteColumnInfo {
  name: string;
  declaredType: string;
  notNull: boolean;
  defaultValue: string | null;
  /** 1-based position in the primary key, 0 when not part of it. */
  primaryKey: number;
}

/** The columns of one table or view, in order. */
export function sqliteColumns(database: SqliteDatabase, table: string): SqliteColumnInfo[] {
  return toSqliteColumns(database.prepare(SQLITE_COLUMNS_QUERY).all(table) as SqliteColumnRow[]);
}

/** The query behind `sqliteColumns`, with the table name as its one parameter. */
export const SQLITE_COLUMNS_QUERY = 'SELECT name, type, "notnull" AS not_null, dflt_value, pk FROM pragma_table_info(?)';

export interface SqliteColumnRow {
  name: string;
  type: string;
  not_null: number;
  dflt_value: string | null;
  pk: number;
}

/** The rows of `SQLITE_COLUMNS_QUERY` as column descriptions. */
export function toSqliteColumns(rows: readonly SqliteColumnRow[]): SqliteColumnInfo[] {
  return rows.map((row) => ({
    name: row.name,
    declaredType: row.type,
    notNull: row.not_null === 1,
    defaultValue: row.dflt_value,
    primaryKey: row.pk,
  }));
}

/** The name of `requested` as stored, matched exactly or else ignoring case (as SQLite itself does). */
export function findSqliteTable(tables: readonly SqliteTableInfo[], requested: string): SqliteTableInfo | undefined {
  const unquoted = /^".*"$/.test(requested) ? requested.slice(1, -1).replace(/""/g, '"') : requested;
  return tables.find((table) => table.name === unquoted) ?? tables.find((table) => table.name.toLowerCase() === unquoted.toLowerCase());
}
