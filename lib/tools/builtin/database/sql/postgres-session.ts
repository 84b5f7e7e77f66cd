import type { Client, DatabaseError, FieldDef } from "pg";
import { DatabaseToolError, MAX_QUERY_BYTES, queryTimeoutMessage, rowBytes, STATEMENT_TIMEOUT_MS, type DatabaseSession, type QueryOutcome, type TableDescription, type TableEntry } from "./session";

const CONNECT_TIMEOUT_MS = 10_000;
const CURSOR = "neurosurfer_rows";
/** Rows fetched from the cursor at a time: few round trips, and never much more than MAX_QUERY_BYTES held. */
const FETCH_BATCH = 200;

// Dates and timestamps stay as PostgreSQL prints them: turning a `timestamp`
// into a JavaScript Date would shift it into the server process's time zone.
const KEEP_AS_TEXT = new Set([1082, 1083, 1114, 1184, 1266]);

const KINDS: Readonly<Record<string, TableEntry["kind"]>> = {
  r: "table",
  p: "partitioned table",
  v: "view",
  m: "materialized view",
  f: "foreign table",
};

/**
 * Connects and opens a `READ ONLY` transaction with a statement timeout; every
 * call of the session runs inside it, and `close()` rolls it back and
 * disconnects. The driver is loaded here so nothing imports it at startup.
 */
export async function openPostgres(connectionString: string, signal: AbortSignal): Promise<DatabaseSession> {
  const pg = await import("pg");
  const { Client: PgClient, types } = pg.default ?? pg;
  const client: Client = new PgClient({
    connectionString,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    query_timeout: STATEMENT_TIMEOUT_MS + 5_000,
    application_name: "neurosurfer-studio",
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        KEEP_AS_TEXT.has(oid) && format !== "binary" ? (value: string) => value : types.getTypeParser(oid, format as "text")) as typeof types.getTypeParser,
    },
  });
  // An error on an idle client (server restart) must not crash the process.
  client.on("error", () => undefined);
  const abort = () => void client.end().catch(() => undefined);
  signal.addEventListener("abort", abort, { once: true });

  try {
    await client.connect();
    await client.query("BEGIN READ ONLY");
    await client.query(`SET LOCAL statement_timeout = ${STATEMENT_TIMEOUT_MS}`);
    // When a call is cancelled the connection is dropped; from PostgreSQL 14 the server then
    // notices within a second and stops the query instead of running on to the timeout.
    const { rows } = await client.query<{ version: number }>("SELECT current_setting('server_version_num')::int AS version");
    if ((rows[0]?.version ?? 0) >= 140_000) await client.query("SET LOCAL client_connection_check_interval = 1000");
  } catch (error) {
    signal.removeEventListener("abort", abort);
    await client.end().catch(() => undefined);
    throw error;
  }

  return {
    engine: "PostgreSQL",

    async info() {
      const { rows } = await client.query<{ version: string; database: string; user: string; tables: string }>(
        `SELECT current_setting('server_version') AS version, current_database() AS database, current_user AS user,
                (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                  WHERE c.relkind IN ('r','p','v','m','f') AND n.nspname NOT IN ('pg_catalog','information_schema')
                    AND n.nspname NOT LIKE 'pg\\_toast%') AS tables`,
      );
      const row = rows[0]!;
      return { engine: "PostgreSQL", version: row.version, database: row.database, user: row.user, tableCount: Number(row.tables) };
    },

    async listTables(limit) {
      const { rows } = await client.query<{ schema: string; name: string; relkind: string; estimate: number }>(
        `SELECT n.nspname AS schema, c.relname AS name, c.relkind, c.reltuples::float8 AS estimate
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE c.relkind IN ('r','p','v','m','f') AND n.nspname NOT IN ('pg_catalog','information_schema')
            AND n.nspname NOT LIKE 'pg\\_toast%' AND NOT c.relispartition
          ORDER BY n.nspname, c.relname LIMIT $1`,
        [limit],
      );
      return rows.map((row) => ({
        schema: row.schema,
        name: row.name,
        kind: KINDS[row.relkind] ?? "table",
        ...(row.estimate >= 0 && row.relkind !== "v" ? { rowEstimate: Math.round(row.estimate) } : {}),
      }));
    },

    async describeTable(requested): Promise<TableDescription | null> {
      const { schema, name } = splitQualifiedName(requested);
      const found = await client.query<{ oid: number; schema: string; name: string; relkind: string; estimate: number }>(
        `SELECT c.oid, n.nspname AS schema, c.relname AS name, c.relkind, c.reltuples::float8 AS estimate
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE c.relkind IN ('r','p','v','m','f')
            AND ($1::text IS NULL OR n.nspname = $1)
            AND lower(c.relname) = lower($2)
          ORDER BY (c.relname = $2) DESC, pg_table_is_visible(c.oid) DESC,
                   (n.nspname IN ('pg_catalog','information_schema')) ASC, n.nspname
          LIMIT 1`,
        [schema, name],
      );
      const table = found.rows[0];
      if (!table) return null;
      const columns = await client.query<{ name: string; type: string; nullable: boolean; default: string | null; primary_key: boolean }>(
        `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable,
                pg_get_expr(d.adbin, d.adrelid) AS default,
                EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisprimary AND a.attnum = ANY (i.indkey)) AS primary_key
           FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
          WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped
          ORDER BY a.attnum`,
        [table.oid],
      );
      const foreignKeys = await client.query<{ definition: string }>(
        `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = $1 AND contype = 'f' ORDER BY conname`,
        [table.oid],
      );
      return {
        table: {
          schema: table.schema,
          name: table.name,
          kind: KINDS[table.relkind] ?? "table",
          ...(table.estimate >= 0 && table.relkind !== "v" ? { rowEstimate: Math.round(table.estimate) } : {}),
        },
        columns: columns.rows.map((column) => ({
          name: column.name,
          type: column.type,
          nullable: column.nullable,
          default: column.default,
          primaryKey: column.primary_key,
        })),
        foreignKeys: foreignKeys.rows.map((row) => row.definition),
      };
    },

    async query(statement, keyword, limit): Promise<QueryOutcome> {
      // A cursor reads only limit + 1 rows however large the result. Utility
      // statements (EXPLAIN, SHOW) cannot be declared as cursors; their output is small.
      // The extended protocol ("queryMode") refuses a second statement at the wire level too.
      const useCursor = keyword === "SELECT" || keyword === "WITH";
      const prefix = useCursor ? `DECLARE ${CURSOR} NO SCROLL CURSOR FOR\n` : "";
      let fields: FieldDef[] = [];
      const rows: unknown[][] = [];
      let counted = 0;
      let more = false;
      try {
        const first = (await client.query({ text: prefix + statement, rowMode: "array", queryMode: "extended" } as never)) as unknown as { rows: unknown[][]; fields: FieldDef[] };
        fields = first.fields;
        if (!useCursor) {
          rows.push(...first.rows.slice(0, limit));
          counted = Math.min(first.rows.length, limit);
          more = first.rows.length > limit;
        } else {
          // In batches, so that rows past MAX_QUERY_BYTES are counted and let go rather than held (see session.ts).
          let bytes = 0;
          let cut = false;
          while (counted <= limit) {
            const batch = (await client.query({ text: `FETCH FORWARD ${Math.min(FETCH_BATCH, limit + 1 - counted)} FROM ${CURSOR}`, rowMode: "array" } as never)) as unknown as {
              rows: unknown[][];
              fields: FieldDef[];
            };
            if (fields.length === 0) fields = batch.fields;
            for (const row of batch.rows) {
              if (counted === limit) {
                more = true;
                break;
              }
              counted += 1;
              if (cut) continue;
              bytes += rowBytes(row);
              if (bytes > MAX_QUERY_BYTES && rows.length > 0) cut = true;
              else rows.push(row);
            }
            if (more || batch.rows.length === 0) break;
          }
        }
      } catch (error) {
        throw new DatabaseToolError(describeQueryError(error as DatabaseError, statement, prefix.length));
      }
      return {
        columns: await columnTypes(client, fields),
        rows,
        truncated: more,
        ...(counted > rows.length ? { cutForSize: { counted } } : {}),
      };
    },

    async close() {
      signal.removeEventListener("abort", abort);
      try {
        await client.query("ROLLBACK");
      } finally {
        await client.end();
      }
    },
  };
}

/** `sales.orders` -> schema and name; `"Odd.Name"` -> name only; quotes removed. */
function splitQualifiedName(requested: string): { schema: string | null; name: string } {
  const part = String.raw`(?:"((?:[^"]|"")+)"|([^".]+))`;
  const qualified = new RegExp(`^${part}\\.${part}$`).exec(requested.trim());
  const unquote = (quoted: string | undefined, plain: string | undefined) => (quoted !== undefined ? quoted.replace(/""/g, '"') : plain!.trim());
  if (qualified) return { schema: unquote(qualified[1], qualified[2]), name: unquote(qualified[3], qualified[4]) };
  const single = new RegExp(`^${part}$`).exec(requested.trim());
  if (single) return { schema: null, name: unquote(single[1], single[2]) };
  return { schema: null, name: requested.trim() };
}

/** The readable type of each result column, looked up in one query. */
async function columnTypes(client: Client, fields: readonly FieldDef[]): Promise<{ name: string; type: string }[]> {
  const oids = [...new Set(fields.map((field) => field.dataTypeID))];
  const names = new Map<number, string>();
  if (oids.length > 0) {
    const { rows } = await client.query<{ oid: number; name: string }>(
      "SELECT oid::int AS oid, format_type(oid, NULL) AS name FROM pg_type WHERE oid = ANY($1::oid[])",
      [oids],
    );
    for (const row of rows) names.set(row.oid, row.name);
  }
  return fields.map((field) => ({ name: field.name, type: names.get(field.dataTypeID) ?? `oid ${field.dataTypeID}` }));
}

/** The server's message, where in the query it went wrong, and its hint. */
function describeQueryError(error: DatabaseError, statement: string, prefixLength: number): string {
  const parts = [`The query failed: ${error.message || String(error)}`];
  const position = Number(error.position);
  if (Number.isInteger(position) && position > prefixLength) {
    const offset = position - 1 - prefixLength;
    const before = statement.slice(0, offset);
    const line = before.split("\n").length;
    const column = offset - before.lastIndexOf("\n");
    parts[0] += ` (at line ${line}, column ${column})`;
  }
  if (error.code === "57014") parts.push(queryTimeoutMessage(STATEMENT_TIMEOUT_MS, "cancelled"));
  if (error.code === "25006") parts.push("Only read-only queries run here.");
  if (error.detail) parts.push(`Detail: ${error.detail}`);
  if (error.hint) parts.push(`Hint: ${error.hint}`);
  return parts.map((part) => (/[.!?]$/.test(part) ? part : `${part}.`)).join(" ");
}
