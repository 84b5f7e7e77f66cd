import path from "node:path";
import {
  findSqliteTable,
  quoteSqliteIdentifier,
  SQLITE_COLUMNS_QUERY,
  SQLITE_TABLES_QUERY,
  toSqliteColumns,
  type SqliteColumnRow,
  type SqliteTableInfo,
} from "../../shared/sqlite-file";
import { DatabaseToolError, driverErrorKind, MAX_QUERY_BYTES, driverMessage, queryTimeoutMessage, secondsText, STATEMENT_TIMEOUT_MS, type DatabaseSession, type QueryOutcome, type TableDescription } from "./session";
import { SqliteProcess } from "./sqlite-process";

/** How long starting the child process and opening the file may take. */
const OPEN_TIMEOUT_MS = 10_000;

export interface SqliteSessionOptions {
  /** The run's cancel signal: when it fires, the running statement stops at once. */
  signal?: AbortSignal;
  /** How long one statement may run; the studio uses STATEMENT_TIMEOUT_MS, tests a shorter one. */
  statementTimeoutMs?: number;
}

/**
 * Opens a SQLite file read-only (and `query_only`) in a child process of its
 * own (sqlite-process.ts), so a statement that runs too long or is cancelled
 * can be stopped; the file must exist. `close()` ends the process.
 */
export async function openSqlite(file: string, options: SqliteSessionOptions = {}): Promise<DatabaseSession> {
  const timeoutMs = options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS;
  const connection = new SqliteProcess(options.signal ?? new AbortController().signal);
  try {
    await connection.request({ operation: "open", file }, OPEN_TIMEOUT_MS, `Opening the SQLite database took longer than ${OPEN_TIMEOUT_MS / 1000} seconds.`);
  } catch (error) {
    await connection.close();
    if (DatabaseToolError.isInstance(error)) throw error;
    const message = driverMessage(error);
    const missing = /unable to open|does not exist|SQLITE_CANTOPEN/i.test(message);
    throw new DatabaseToolError(
      missing
        ? `Could not open the SQLite database: the file ${path.basename(file)} does not exist or cannot be read. Check the path in the connection URL stored in Settings → Secrets.`
        : `Could not open the SQLite database ${path.basename(file)}: ${message}.`,
      missing ? "not-found" : driverErrorKind(error),
    );
  }

  /** One statement's rows (or its first row), stopped at the timeout. */
  const read = <Row>(operation: "all" | "get", sql: string, ...parameters: unknown[]) =>
    connection.request({ operation, sql, parameters }, timeoutMs, `Reading the SQLite database took longer than ${secondsText(timeoutMs)} and was stopped.`) as Promise<Row>;
  const tables = () => read<SqliteTableInfo[]>("all", SQLITE_TABLES_QUERY);

  return {
    engine: "SQLite",

    async info() {
      const { version } = await read<{ version: string }>("get", "SELECT sqlite_version() AS version");
      return { engine: "SQLite", version, database: path.basename(file), tableCount: (await tables()).length };
    },

    async listTables(limit) {
      return (await tables()).slice(0, limit).map((table) => ({ name: table.name, kind: table.kind }));
    },

    async describeTable(requested): Promise<TableDescription | null> {
      const found = findSqliteTable(await tables(), requested);
      if (!found) return null;
      const columns = toSqliteColumns(await read<SqliteColumnRow[]>("all", SQLITE_COLUMNS_QUERY, found.name)).map((column) => ({
        name: column.name,
        type: column.declaredType || "(none)",
        nullable: !column.notNull && column.primaryKey === 0,
        default: column.defaultValue,
        primaryKey: column.primaryKey > 0,
      }));
      const foreignKeys = (
        await read<{ from: string; table: string; to: string | null }[]>("all", 'SELECT "from", "table", "to" FROM pragma_foreign_key_list(?)', found.name)
      ).map((key) => `${key.from} -> ${key.table}(${key.to ?? "primary key"})`);
      const { count } = await read<{ count: number }>("get", `SELECT count(*) AS count FROM ${quoteSqliteIdentifier(found.name)}`);
      return { table: { name: found.name, kind: found.kind }, columns, foreignKeys, rowCount: count };
    },

    async query(statement, _keyword, limit): Promise<QueryOutcome> {
      // The child reads only limit + 1 rows, however large the result.
      const outcome = (await connection.request({ operation: "query", sql: statement, limit, maxBytes: MAX_QUERY_BYTES }, timeoutMs, queryTimeoutMessage(timeoutMs, "stopped"))) as
        | QueryOutcome
        | { refusal: "writes" | "no rows" };
      // The handle is read-only and query_only is on; this is one more guard, from SQLite's own parser.
      if ("refusal" in outcome) {
        throw new DatabaseToolError(
          outcome.refusal === "writes"
            ? "`sql`: SQLite reports that this statement would write; only read-only queries run here."
            : "`sql`: this statement returns no rows; write a SELECT.",
        );
      }
      return outcome;
    },

    async close() {
      await connection.close();
    },
  };
}
