import path from "node:path";
import { findSqliteTable, listSqliteTables, openSqliteReadOnly, quoteSqliteIdentifier, sqliteColumns } from "../../shared/sqlite-file";
import { DatabaseToolError, driverMessage, type DatabaseSession, type QueryOutcome, type TableDescription } from "./session";

/** Opens a SQLite file read-only (and `query_only`); the file must exist. */
export async function openSqlite(file: string): Promise<DatabaseSession> {
  let database: Awaited<ReturnType<typeof openSqliteReadOnly>>;
  try {
    database = await openSqliteReadOnly(file);
  } catch (error) {
    const message = driverMessage(error);
    const missing = /unable to open|does not exist|SQLITE_CANTOPEN/i.test(message);
    throw new DatabaseToolError(
      missing
        ? `Could not open the SQLite database: the file ${path.basename(file)} does not exist or cannot be read. Check the path in the connection URL stored in Settings → Secrets.`
        : `Could not open the SQLite database ${path.basename(file)}: ${message}.`,
    );
  }

  return {
    engine: "SQLite",

    async info() {
      const { version } = database.prepare("SELECT sqlite_version() AS version").get() as { version: string };
      return { engine: "SQLite", version, database: path.basename(file), tableCount: listSqliteTables(database).length };
    },

    async listTables(limit) {
      return listSqliteTables(database)
        .slice(0, limit)
        .map((table) => ({ name: table.name, kind: table.kind }));
    },

    async describeTable(requested): Promise<TableDescription | null> {
      const found = findSqliteTable(listSqliteTables(database), requested);
      if (!found) return null;
      const columns = sqliteColumns(database, found.name).map((column) => ({
        name: column.name,
        type: column.declaredType || "(none)",
        nullable: !column.notNull && column.primaryKey === 0,
        default: column.defaultValue,
        primaryKey: column.primaryKey > 0,
      }));
      const foreignKeys = (
        database.prepare('SELECT "from", "table", "to" FROM pragma_foreign_key_list(?)').all(found.name) as {
          from: string;
          table: string;
          to: string | null;
        }[]
      ).map((key) => `${key.from} -> ${key.table}(${key.to ?? "primary key"})`);
      const { count } = database.prepare(`SELECT count(*) AS count FROM ${quoteSqliteIdentifier(found.name)}`).get() as { count: number };
      return { table: { name: found.name, kind: found.kind }, columns, foreignKeys, rowCount: count };
    },

    async query(statement, _keyword, limit): Promise<QueryOutcome> {
      const prepared = database.prepare(statement);
      // The handle is read-only and query_only is on; this is one more guard, from SQLite's own parser.
      if (!prepared.readonly) throw new DatabaseToolError("`sql`: SQLite reports that this statement would write; only read-only queries run here.");
      if (!prepared.reader) throw new DatabaseToolError("`sql`: this statement returns no rows; write a SELECT.");
      prepared.raw(true);
      const columns = prepared.columns().map((column) => ({ name: column.name, type: column.type ?? "" }));
      const rows: unknown[][] = [];
      let truncated = false;
      // Iterate rather than fetch all: only limit + 1 rows are ever read.
      const iterator = prepared.iterate() as IterableIterator<unknown[]>;
      try {
        for (const row of iterator) {
          if (rows.length === limit) {
            truncated = true;
            break;
          }
          rows.push(row);
        }
      } finally {
        iterator.return?.();
      }
      return { columns, rows, truncated };
    },

    async close() {
      database.close();
    },
  };
}
