import Database from "better-sqlite3";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AutoApproveIOHandler } from "../../../io-handler";
import { toolManifest } from "../../../registry/registry";
import { modelToolSchema } from "../../../schemas";
import { secretsFromRecord } from "../../../secrets";
import { createToolContext, type ToolContext } from "../../../tool-context";
import { ToolPool } from "../../../tool-pool";
import type { ToolResult } from "../../../tool-result";
import { databaseTools } from "../index";
import { openPostgres } from "./postgres-session";
import { SqlTool } from "./sql-tool";
import { openSqlite } from "./sqlite-session";

const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const SCHEMA = `ns_sql_test_${process.pid}_${Date.now().toString(36)}`;
const PASSWORD = "Zebra-Quartz-9931-pw";

const tool = new SqlTool();
let directory: string;
let sqliteFile: string;
let ctx: ToolContext;
let admin: Client;

interface QueryData {
  columns: { name: string; type: string }[];
  rows: Record<string, unknown>[];
  rowValues: unknown[][];
  rowCount: number;
  truncated: boolean;
}

/** Runs the tool as a workflow would: the DSN bound as a `${NAME}` reference the model never sees. */
function run(secret: "SQLITE_URL" | "POSTGRES_URL" | "BAD_PORT_URL" | "WRONG_DATABASE_URL", args: Record<string, unknown>): Promise<ToolResult> {
  return tool.run(args, ctx, { boundArgs: { dsn: `\${${secret}}` } });
}

function ok(result: ToolResult): ToolResult {
  expect(result.isError, result.content).toBe(false);
  return result;
}

async function postgresCount(table: string): Promise<number> {
  const { rows } = await admin.query<{ count: string }>(`SELECT count(*) FROM ${SCHEMA}.${table}`);
  return Number(rows[0]!.count);
}

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "sql-tool-"));
  sqliteFile = path.join(directory, "shop.db");
  const database = new Database(sqliteFile);
  database.exec(`
    CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT DEFAULT 'none');
    CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id), total REAL);
    CREATE VIEW order_totals AS SELECT customer_id, sum(total) AS total FROM orders GROUP BY customer_id;
    INSERT INTO customers (name, email) VALUES ('Ada', 'ada@example.com'), ('Grace', NULL), ('Alan', 'alan@example.com');
    INSERT INTO orders (customer_id, total) VALUES (1, 10.5), (1, 20), (2, 7.25);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500) SELECT count(*) FROM n;
  `);
  database.exec("CREATE TABLE numbers (n INTEGER); WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 500) INSERT INTO numbers SELECT i FROM s;");
  database.close();

  admin = new Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${SCHEMA}`);
  await admin.query(`
    CREATE TABLE ${SCHEMA}.customers (id serial PRIMARY KEY, name text NOT NULL, email text DEFAULT 'none', joined timestamp DEFAULT '2024-01-02 03:04:05');
    CREATE TABLE ${SCHEMA}.orders (id bigserial PRIMARY KEY, customer_id int NOT NULL REFERENCES ${SCHEMA}.customers(id), total numeric(10,2), details jsonb, receipt bytea);
    CREATE TABLE ${SCHEMA}."Mixed Case" (value int);
    CREATE VIEW ${SCHEMA}.order_totals AS SELECT customer_id, sum(total) AS total FROM ${SCHEMA}.orders GROUP BY customer_id;
    CREATE SEQUENCE ${SCHEMA}.counter;
    INSERT INTO ${SCHEMA}.customers (name, email) VALUES ('Ada', 'ada@example.com'), ('Grace', NULL), ('Alan', 'alan@example.com');
    INSERT INTO ${SCHEMA}.orders (customer_id, total, details, receipt) VALUES (1, 10.50, '{"via": "web"}', '\\x010203'), (1, 20, NULL, NULL), (2, 7.25, '[1,2]', NULL);
  `);

  const badPort = new URL(POSTGRES_URL);
  badPort.port = "1";
  badPort.username = "reader";
  badPort.password = PASSWORD;
  const wrongDatabase = new URL(POSTGRES_URL);
  wrongDatabase.pathname = "/payroll_archive_2019";
  const withPassword = new URL(POSTGRES_URL);
  withPassword.password = PASSWORD; // trust auth ignores it, so the connection still works
  ctx = createToolContext({
    io: new AutoApproveIOHandler(),
    secrets: secretsFromRecord({
      SQLITE_URL: `sqlite://${sqliteFile}`,
      POSTGRES_URL: withPassword.toString(),
      BAD_PORT_URL: badPort.toString(),
      WRONG_DATABASE_URL: wrongDatabase.toString(),
      NOT_A_URL: "just-some-words",
      MYSQL_URL: "mysql://root@db/app",
    }),
  });
});

afterAll(async () => {
  await admin?.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  await admin?.end();
  await rm(directory, { recursive: true, force: true });
});

describe("sql tool: declaration", () => {
  it("declares a core, verified, read-only database tool with four operations", () => {
    expect(tool.name).toBe("sql");
    expect(tool.title).toBe("SQL Database");
    expect(tool.domain).toBe("database");
    expect(tool.runtime).toBe("in_process");
    expect(tool.origin).toBe("core");
    expect(tool.verified).toBe(true);
    expect(tool.settingsModel).toBeNull();
    expect(tool.secretInputs).toEqual(["dsn"]);
    expect(tool.credentialHelp.endsWith("Store it in Settings → Secrets and reference it as ${NAME}.")).toBe(true);
    expect(tool.capabilities).toEqual(["db.connect", "db.schema", "db.query"]);
    expect(Object.keys(tool.operations ?? {})).toEqual(["test_connection", "list_tables", "table_schema", "query"]);
    expect(tool.isReadOnly()).toBe(true);
    for (const operation of Object.keys(tool.operations ?? {})) expect(tool.isReadOnly({ operation } as never)).toBe(true);
    expect(tool.operations?.test_connection?.capabilities).toEqual(["db.connect"]);
    expect(tool.operations?.query?.capabilities).toEqual(["db.query"]);
    expect(toolManifest(tool)).toBeTruthy();
    expect(databaseTools()[0]).not.toBe(databaseTools()[0]);
  });

  it("never shows `dsn` to the model", () => {
    const schema = modelToolSchema(tool);
    expect(JSON.stringify(schema)).not.toContain("dsn");
    const properties = (schema.inputSchema as { properties: Record<string, unknown> }).properties;
    expect(Object.keys(properties).sort()).toEqual(["limit", "operation", "sql", "table"]);
    const pooled = new ToolPool([tool]).schemas();
    expect(JSON.stringify(pooled)).not.toContain("dsn");
  });

  it("checks that a DSN is a usable connection URL", () => {
    expect(tool.checkSecret("dsn", "postgresql://u:p@db:5432/app")).toBe("");
    expect(tool.checkSecret("dsn", "postgresql+psycopg://u@db/app")).toBe("");
    expect(tool.checkSecret("dsn", "sqlite:///srv/app.db")).toBe("");
    expect(tool.checkSecret("dsn", "file:///srv/app.db")).toBe("");
    expect(tool.checkSecret("dsn", "not a url")).toMatch(/^is not a database connection URL \(expected postgresql:\/\/user:password@host:5432\/database or sqlite:\/\/\/absolute\/path\.db\)$/);
    expect(tool.checkSecret("dsn", "mysql://root@db/app")).toContain("does not support");
    expect(tool.checkSecret("dsn", "")).not.toBe("");
  });
});

describe("sql tool: secrets", () => {
  it("reports an unusable secret with the credential help, before connecting", async () => {
    const result = await tool.run({ operation: "test_connection" }, ctx, { boundArgs: { dsn: "${NOT_A_URL}" } });
    expect(result.isError).toBe(true);
    expect(result.content).toContain("`dsn`: the secret ${NOT_A_URL} is not a database connection URL");
    expect(result.content).toContain("Store it in Settings → Secrets and reference it as ${NAME}.");
    expect(result.content).not.toContain("just-some-words");
    const mysql = await tool.run({ operation: "test_connection" }, ctx, { boundArgs: { dsn: "${MYSQL_URL}" } });
    expect(mysql.content).toContain("does not support");
  });

  it("says when the secret is not set", async () => {
    const result = await tool.run({ operation: "list_tables" }, ctx, { boundArgs: { dsn: "${MISSING_DB}" } });
    expect(result.isError).toBe(true);
    expect(result.content).toContain("the secret ${MISSING_DB} is not set");
  });

  it("ignores a DSN the model tries to pass itself", async () => {
    const result = await tool.run({ operation: "list_tables", dsn: `sqlite://${sqliteFile}` }, ctx);
    expect(result.isError).toBe(true);
    expect(result.content).toContain("no database connection is set for this step");
  });

  it("never puts the password in a failing connection's result", async () => {
    const result = await run("BAD_PORT_URL", { operation: "test_connection" });
    expect(result.isError).toBe(true);
    expect(result.content).toContain("Could not connect to the PostgreSQL database");
    expect(result.content).toMatch(/ECONNREFUSED/);
    expect(JSON.stringify(result)).not.toContain(PASSWORD);
    expect(JSON.stringify(result)).not.toContain(encodeURIComponent(PASSWORD));
  });

  it("keeps the connection's host, role and database out of the errors a model reads", async () => {
    const refused = await run("BAD_PORT_URL", { operation: "test_connection" });
    expect(refused.content).toMatch(/ECONNREFUSED/);
    expect(refused.content).not.toContain(`${new URL(POSTGRES_URL).hostname}:1`);
    const missing = await run("WRONG_DATABASE_URL", { operation: "test_connection" });
    expect(missing.isError).toBe(true);
    // PostgreSQL says: database "payroll_archive_2019" does not exist.
    expect(missing.content).toContain("does not exist");
    expect(missing.content).not.toContain("payroll_archive_2019");
    expect(missing.content).toContain("[connection detail hidden]");
  });

  it("never puts the password in a successful result either", async () => {
    const result = ok(await run("POSTGRES_URL", { operation: "query", sql: "SELECT current_setting('application_name') AS app" }));
    expect(JSON.stringify(result)).not.toContain(PASSWORD);
    expect((result.data as QueryData).rows).toEqual([{ app: "neurosurfer-studio" }]);
  });
});

describe("sql tool: SQLite", () => {
  it("tests the connection", async () => {
    const result = ok(await run("SQLITE_URL", { operation: "test_connection" }));
    expect(result.content).toMatch(/^Connected to SQLite 3\.\d+\.\d+, database shop\.db: 4 tables \(views included\)\.$/);
  });

  it("lists tables and views", async () => {
    const result = ok(await run("SQLITE_URL", { operation: "list_tables" }));
    expect((result.data as { tables: unknown[] }).tables).toEqual([
      { name: "customers", kind: "table" },
      { name: "numbers", kind: "table" },
      { name: "order_totals", kind: "view" },
      { name: "orders", kind: "table" },
    ]);
    expect(result.content).toContain("4 tables and views:");
  });

  it("describes a table with types, nullability, defaults and keys", async () => {
    const result = ok(await run("SQLITE_URL", { operation: "table_schema", table: "Orders" }));
    const data = result.data as { columns: unknown[]; foreignKeys: string[]; rowCount: number };
    expect(data.columns).toEqual([
      { name: "id", type: "INTEGER", nullable: false, default: null, primaryKey: true },
      { name: "customer_id", type: "INTEGER", nullable: false, default: null, primaryKey: false },
      { name: "total", type: "REAL", nullable: true, default: null, primaryKey: false },
    ]);
    expect(data.foreignKeys).toEqual(["customer_id -> customers(id)"]);
    expect(data.rowCount).toBe(3);
    expect(result.content).toContain("Table orders (SQLite), 3 columns, 3 rows:");
    const missing = await run("SQLITE_URL", { operation: "table_schema", table: "invoices" });
    expect(missing.isError).toBe(true);
    expect(missing.content).toContain('no table or view named "invoices". Tables include: customers, numbers, order_totals, orders.');
  });

  it("runs a query and returns columns and rows as data and as a text table", async () => {
    const result = ok(
      await run("SQLITE_URL", {
        operation: "query",
        sql: "SELECT c.name, count(o.id) AS orders, sum(o.total) AS spent FROM customers c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.id ORDER BY c.id;",
      }),
    );
    const data = result.data as QueryData;
    expect(data.columns.map((column) => column.name)).toEqual(["name", "orders", "spent"]);
    // Keyed by column, so a workflow reads `rows[0].name`; the same rows by position under rowValues.
    expect(data.rows).toEqual([
      { name: "Ada", orders: 2, spent: 30.5 },
      { name: "Grace", orders: 1, spent: 7.25 },
      { name: "Alan", orders: 0, spent: null },
    ]);
    expect(data.rowValues).toEqual([
      ["Ada", 2, 30.5],
      ["Grace", 1, 7.25],
      ["Alan", 0, null],
    ]);
    expect(data.truncated).toBe(false);
    expect(result.content).toContain("3 rows.");
    expect(result.content).toContain("| Ada   | 2      | 30.5  |");
  });

  it("keys a column name that repeats by its place, and keeps every value by position", async () => {
    const result = ok(await run("SQLITE_URL", { operation: "query", sql: "SELECT c.id, o.id, o.total FROM customers c JOIN orders o ON o.customer_id = c.id ORDER BY o.id LIMIT 1" }));
    const data = result.data as QueryData;
    expect(data.columns.map((column) => column.name)).toEqual(["id", "id", "total"]);
    expect(Object.keys(data.rows[0]!)).toEqual(["id", "id_2", "total"]);
    expect(data.rowValues[0]).toEqual([data.rows[0]!.id, data.rows[0]!.id_2, data.rows[0]!.total]);
  });

  it("caps the rows at `limit` and says there were more", async () => {
    const result = ok(await run("SQLITE_URL", { operation: "query", sql: "SELECT n FROM numbers ORDER BY n", limit: 10 }));
    const data = result.data as QueryData;
    expect(data.rows).toHaveLength(10);
    expect(data.truncated).toBe(true);
    expect(result.content).toContain("First 10 rows (the result has more; the limit is 10)");
    const defaults = ok(await run("SQLITE_URL", { operation: "query", sql: "SELECT n FROM numbers" }));
    expect((defaults.data as QueryData).rows).toHaveLength(200);
    const tooMany = await run("SQLITE_URL", { operation: "query", sql: "SELECT 1", limit: 5000 });
    expect(tooMany.isError).toBe(true);
    expect(tooMany.content).toContain("`limit`");
  });

  it("keeps the leading rows of a result too wide to hold, and counts the rest", async () => {
    // 1,000 rows of ten 4,000-character values: about 40 MB as read, past the 16 MB a query returns (rows are read whole,
    // before each value is shortened for the step).
    const wide = `WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1000) SELECT x, ${Array.from({ length: 10 }, (_, index) => `hex(zeroblob(2000)) AS c${index}`).join(", ")} FROM n`;
    const result = ok(await run("SQLITE_URL", { operation: "query", sql: wide, limit: 1000 }));
    const data = result.data as QueryData & { rowsCounted?: number };
    expect(data.rowsCounted).toBe(1000);
    expect(data.rows.length).toBeGreaterThan(100);
    expect(data.rows.length).toBeLessThan(1000);
    expect(data.rows.map((row) => row.x)).toEqual(data.rows.map((_, index) => index + 1));
    expect(data.truncated).toBe(true);
    expect(result.content).toContain(`First ${data.rows.length} rows of 1000: the rows after them were counted, not kept, since a query returns at most 16 MB.`);
  });

  it("refuses writes and leaves the file unchanged", async () => {
    const before = await readFile(sqliteFile);
    const attempts = [
      "INSERT INTO customers (name) VALUES ('Mallory')",
      "UPDATE customers SET name = 'x'",
      "DELETE FROM orders",
      "DROP TABLE orders",
      "SELECT 1; DELETE FROM orders",
      "WITH x AS (SELECT 1) DELETE FROM orders",
      "ATTACH DATABASE '/tmp/x.db' AS x",
      "PRAGMA user_version = 5",
    ];
    for (const sql of attempts) {
      const result = await run("SQLITE_URL", { operation: "query", sql });
      expect(result.isError, sql).toBe(true);
      expect(result.content, sql).toMatch(/only read-only queries|only one statement/);
    }
    expect((await readFile(sqliteFile)).equals(before)).toBe(true);
    const count = ok(await run("SQLITE_URL", { operation: "query", sql: "SELECT count(*) AS n FROM orders" }));
    expect((count.data as QueryData).rows).toEqual([{ n: 3 }]);
  });

  it("is read-only below the statement check too", async () => {
    const session = await openSqlite(sqliteFile);
    try {
      await expect(session.query("DELETE FROM orders", "SELECT", 10)).rejects.toThrow(/would write/);
    } finally {
      await session.close();
    }
  });

  it("returns driver errors as results", async () => {
    const result = await run("SQLITE_URL", { operation: "query", sql: "SELECT nope FROM customers" });
    expect(result.isError).toBe(true);
    expect(result.content).toContain("The SQLite database reported an error: no such column: nope");
  });

  it("says when the database file does not exist", async () => {
    const missingCtx = createToolContext({
      io: new AutoApproveIOHandler(),
      secrets: secretsFromRecord({ DB: `sqlite://${path.join(directory, "missing.db")}` }),
    });
    const result = await tool.run({ operation: "test_connection" }, missingCtx, { boundArgs: { dsn: "${DB}" } });
    expect(result.isError).toBe(true);
    expect(result.content).toContain("the file missing.db does not exist");
    expect(result).toMatchObject({ errorKind: "not-found", retryable: false });
  });

  it("calls a file another connection holds locked busy, which is worth trying again", async () => {
    const locker = new Database(sqliteFile);
    locker.exec("BEGIN EXCLUSIVE");
    try {
      const result = await run("SQLITE_URL", { operation: "list_tables" });
      expect(result.isError).toBe(true);
      expect(result.content).toMatch(/database is locked/);
      expect(result).toMatchObject({ errorKind: "busy", retryable: true });
    } finally {
      locker.exec("ROLLBACK");
      locker.close();
    }
  });
});

describe("sql tool: PostgreSQL", () => {
  it("tests the connection", async () => {
    const result = ok(await run("POSTGRES_URL", { operation: "test_connection" }));
    expect(result.content).toMatch(/^Connected to PostgreSQL \d+/);
    expect(result.data).toMatchObject({ engine: "PostgreSQL", database: new URL(POSTGRES_URL).pathname.slice(1) });
  });

  it("lists tables and views with their schema", async () => {
    const result = ok(await run("POSTGRES_URL", { operation: "list_tables" }));
    const ours = (result.data as { tables: { schema: string; name: string; kind: string }[] }).tables.filter((table) => table.schema === SCHEMA);
    expect(ours.map(({ name, kind }) => ({ name, kind }))).toEqual([
      { name: "Mixed Case", kind: "table" },
      { name: "customers", kind: "table" },
      { name: "order_totals", kind: "view" },
      { name: "orders", kind: "table" },
    ]);
    expect(result.content).toContain(SCHEMA);
  });

  it("describes a table by qualified name", async () => {
    const result = ok(await run("POSTGRES_URL", { operation: "table_schema", table: `${SCHEMA}.orders` }));
    const data = result.data as { columns: { name: string; type: string; nullable: boolean; primaryKey: boolean; default: string | null }[]; foreignKeys: string[] };
    expect(data.columns.map((column) => [column.name, column.type, column.nullable, column.primaryKey])).toEqual([
      ["id", "bigint", false, true],
      ["customer_id", "integer", false, false],
      ["total", "numeric(10,2)", true, false],
      ["details", "jsonb", true, false],
      ["receipt", "bytea", true, false],
    ]);
    expect(data.columns[0]!.default).toContain("nextval");
    expect(data.foreignKeys).toEqual([`FOREIGN KEY (customer_id) REFERENCES ${SCHEMA}.customers(id)`]);
    expect(result.content).toContain(`Table ${SCHEMA}.orders (PostgreSQL), 5 columns`);

    const quoted = ok(await run("POSTGRES_URL", { operation: "table_schema", table: `${SCHEMA}."Mixed Case"` }));
    expect((quoted.data as { columns: { name: string }[] }).columns.map((column) => column.name)).toEqual(["value"]);
    const missing = await run("POSTGRES_URL", { operation: "table_schema", table: `${SCHEMA}.invoices` });
    expect(missing.isError).toBe(true);
    expect(missing.content).toContain(`no table or view named "${SCHEMA}.invoices"`);
  });

  it("runs a query, with readable types and faithful values", async () => {
    const result = ok(
      await run("POSTGRES_URL", {
        operation: "query",
        sql: `SELECT c.name, c.joined, o.id, o.total, o.details, o.receipt FROM ${SCHEMA}.orders o JOIN ${SCHEMA}.customers c ON c.id = o.customer_id ORDER BY o.id`,
      }),
    );
    const data = result.data as QueryData;
    expect(data.columns).toEqual([
      { name: "name", type: "text" },
      { name: "joined", type: "timestamp without time zone" },
      { name: "id", type: "bigint" },
      { name: "total", type: "numeric" },
      { name: "details", type: "jsonb" },
      { name: "receipt", type: "bytea" },
    ]);
    expect(data.rows[0]).toEqual({ name: "Ada", joined: "2024-01-02 03:04:05", id: "1", total: "10.50", details: { via: "web" }, receipt: "<3 bytes>" });
    expect(data.rows).toHaveLength(3);
    expect(result.content).toContain("3 rows.");
  });

  it("caps rows with a cursor and says there were more", async () => {
    const result = ok(await run("POSTGRES_URL", { operation: "query", sql: "SELECT i FROM generate_series(1, 1000000) AS i", limit: 25 }));
    const data = result.data as QueryData;
    expect(data.rows).toHaveLength(25);
    expect(data.rows[24]).toEqual({ i: 25 });
    expect(data.truncated).toBe(true);
  });

  it("fetches a result too wide to hold in batches: the leading rows kept, the rest counted up to the limit", async () => {
    const result = ok(await run("POSTGRES_URL", { operation: "query", sql: "SELECT i, repeat('x', 40000) AS wide FROM generate_series(1, 1000000) AS i", limit: 1000 }));
    const data = result.data as QueryData & { rowsCounted?: number };
    expect(data.rowsCounted).toBe(1000);
    expect(data.rows.length).toBeGreaterThan(100);
    expect(data.rows.length).toBeLessThan(1000);
    expect(data.rows.map((row) => row.i)).toEqual(data.rows.map((_, index) => index + 1));
    expect(result.content).toMatch(/^First \d+ rows of 1000 \(and more past the limit of 1000\): the rows after them were counted, not kept/);
  });

  it("runs WITH, EXPLAIN and SHOW", async () => {
    ok(await run("POSTGRES_URL", { operation: "query", sql: `WITH t AS (SELECT * FROM ${SCHEMA}.customers) SELECT count(*) FROM t` }));
    const explain = ok(await run("POSTGRES_URL", { operation: "query", sql: `EXPLAIN SELECT * FROM ${SCHEMA}.orders` }));
    expect((explain.data as QueryData).columns[0]!.name).toBe("QUERY PLAN");
    const show = ok(await run("POSTGRES_URL", { operation: "query", sql: "SHOW transaction_read_only" }));
    expect((show.data as QueryData).rows).toEqual([{ transaction_read_only: "on" }]);
  });

  it("refuses writes and leaves the tables unchanged", async () => {
    const attempts = [
      `INSERT INTO ${SCHEMA}.customers (name) VALUES ('Mallory')`,
      `UPDATE ${SCHEMA}.customers SET name = 'x'`,
      `DELETE FROM ${SCHEMA}.orders`,
      `DROP TABLE ${SCHEMA}.orders`,
      `TRUNCATE ${SCHEMA}.orders`,
      `SELECT 1; DELETE FROM ${SCHEMA}.orders`,
      `WITH gone AS (DELETE FROM ${SCHEMA}.orders RETURNING *) SELECT count(*) FROM gone`,
      `EXPLAIN ANALYZE DELETE FROM ${SCHEMA}.orders`,
      `SELECT * INTO ${SCHEMA}.stolen FROM ${SCHEMA}.orders`,
      `SELECT * FROM ${SCHEMA}.orders FOR UPDATE`,
      "COMMIT",
    ];
    for (const sql of attempts) {
      const result = await run("POSTGRES_URL", { operation: "query", sql });
      expect(result.isError, sql).toBe(true);
      expect(result.content, sql).toMatch(/only read-only queries|only one statement/);
    }
    expect(await postgresCount("orders")).toBe(3);
    expect(await postgresCount("customers")).toBe(3);
  });

  it("runs in a READ ONLY transaction, which stops writes the statement check cannot see", async () => {
    const result = await run("POSTGRES_URL", { operation: "query", sql: `SELECT nextval('${SCHEMA}.counter')` });
    expect(result.isError).toBe(true);
    expect(result.content).toContain("read-only transaction");
    const session = await openPostgres(POSTGRES_URL, new AbortController().signal);
    try {
      await expect(session.query(`INSERT INTO ${SCHEMA}.customers (name) VALUES ('Mallory')`, "EXPLAIN", 10)).rejects.toThrow(/read-only transaction/);
    } finally {
      await session.close();
    }
    expect(await postgresCount("customers")).toBe(3);
  });

  it("returns server errors with their position and hint", async () => {
    const result = await run("POSTGRES_URL", { operation: "query", sql: `SELECT\n  nope FROM ${SCHEMA}.customers` });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('The query failed: column "nope" does not exist (at line 2, column 3).');
  });

  it("runs with a statement timeout", async () => {
    const result = ok(await run("POSTGRES_URL", { operation: "query", sql: "SHOW statement_timeout" }));
    expect((result.data as QueryData).rows).toEqual([{ statement_timeout: "30s" }]);
  });

  it("stops promptly when the call is cancelled", async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 200);
    const result = await tool.run({ operation: "query", sql: "SELECT pg_sleep(5)" }, { ...ctx, signal: controller.signal }, { boundArgs: { dsn: "${POSTGRES_URL}" } });
    expect(result.isError).toBe(true);
    expect(result.content).toBe("The database call was cancelled.");
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("closes every connection it opens", async () => {
    for (let index = 0; index < 5; index += 1) {
      await run("POSTGRES_URL", { operation: "query", sql: "SELECT 1" });
      await run("POSTGRES_URL", { operation: "query", sql: "SELECT nope" });
    }
    // The cancelled call above dropped its connection mid-query; the server notices within a second or so.
    let open = -1;
    for (let attempt = 0; attempt < 30 && open !== 0; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const { rows } = await admin.query<{ count: string }>(
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'neurosurfer-studio' AND pid <> pg_backend_pid()",
      );
      open = Number(rows[0]!.count);
    }
    expect(open).toBe(0);
  });
});
