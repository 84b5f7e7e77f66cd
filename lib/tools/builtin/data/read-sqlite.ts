import { ColumnTypeAccumulator, typeFromDeclared } from "./column-types";
import {
  findSqliteTable,
  listSqliteTables,
  openSqliteReadOnly,
  quoteSqliteIdentifier,
  type SqliteDatabase,
  type SqliteTableInfo,
  sqliteColumns,
} from "../shared/sqlite-file";
import { DataFileError, type TablePreview } from "./table-preview";
import { toJsonValue } from "../shared/text-table";

/** Beyond this many tables only names are listed, so one result stays readable. */
export const MAX_SQLITE_TABLES = 30;

export interface SqlitePreview {
  tables: (TablePreview & { name: string; kind: "table" | "view" })[];
  /** Tables beyond {@link MAX_SQLITE_TABLES}, by name only. */
  otherTables: string[];
}

/** Every table of a SQLite file (or only `table`) with its columns, types, row count and first rows. */
export async function readSqlite(file: string, rows: number, table: string | undefined): Promise<SqlitePreview> {
  let database;
  try {
    database = await openSqliteReadOnly(file);
  } catch (error) {
    throw new DataFileError(`The file could not be opened as a SQLite database: ${error instanceof Error ? error.message : String(error)}.`);
  }
  try {
    let tables = listSqliteTables(database);
    if (table !== undefined) {
      const found = findSqliteTable(tables, table);
      if (!found) {
        const known = tables.map((each) => each.name);
        throw new DataFileError(
          `\`table\`: there is no table or view named "${table}" in this database. ${known.length === 0 ? "It has no tables." : `Its tables: ${known.slice(0, 50).join(", ")}${known.length > 50 ? ", …" : ""}.`}`,
        );
      }
      tables = [found];
    }
    const shown = tables.slice(0, MAX_SQLITE_TABLES);
    return {
      tables: shown.map((info) => {
        try {
          return describeSqliteTable(database, info, rows);
        } catch (error) {
          // A view over a dropped table fails to read; the rest of the file is still worth showing.
          return {
            name: info.name,
            kind: info.kind,
            columns: [],
            rows: [],
            rowCount: 0,
            notes: [`This ${info.kind} could not be read: ${error instanceof Error ? error.message : String(error)}.`],
          };
        }
      }),
      otherTables: tables.slice(MAX_SQLITE_TABLES).map((info) => info.name),
    };
  } finally {
    database.close();
  }
}

function describeSqliteTable(
  database: SqliteDatabase,
  info: SqliteTableInfo,
  rows: number,
): TablePreview & { name: string; kind: "table" | "view" } {
  const columns = sqliteColumns(database, info.name);
  const quoted = quoteSqliteIdentifier(info.name);
  const { count } = database.prepare(`SELECT count(*) AS count FROM ${quoted}`).get() as { count: number };
  const statement = database.prepare(`SELECT * FROM ${quoted} LIMIT ?`).raw(true);
  const firstRows = statement.all(rows) as unknown[][];
  return {
    name: info.name,
    kind: info.kind,
    columns: columns.map((column, index) => {
      // The declared type says what the column is meant to hold; SQLite does not enforce it,
      // so an undeclared column is typed from the rows shown.
      const accumulator = new ColumnTypeAccumulator("typed");
      for (const row of firstRows) accumulator.addValue(row[index]);
      const seen = accumulator.result();
      return {
        name: column.name,
        type: typeFromDeclared(column.declaredType) ?? seen.type,
        nullable: !column.notNull && column.primaryKey === 0 ? true : seen.nullable,
        ...(column.declaredType ? { declaredType: column.declaredType } : {}),
      };
    }),
    rows: firstRows.map((row) => row.map(toJsonValue)),
    rowCount: count,
    notes: [],
  };
}
