import type { OperationArgs } from "../../../tool";
import { CoreTool } from "../../shared/core-tool";
import { parseDsn } from "./dsn";
import { listTablesOperation } from "./operations/list-tables.operation";
import { queryOperation } from "./operations/query.operation";
import { tableSchemaOperation } from "./operations/table-schema.operation";
import { testConnectionOperation } from "./operations/test-connection.operation";

/**
 * Reads a PostgreSQL or SQLite database: tests the connection, lists tables,
 * describes one, and runs read-only queries. The connection URL is a secret
 * input the model never sees. Nothing here writes: statements are checked
 * before they are sent, PostgreSQL runs them in a READ ONLY transaction, and
 * SQLite files are opened read-only.
 */
export class SqlTool extends CoreTool<OperationArgs> {
  constructor() {
    super({
      name: "sql",
      title: "SQL Database",
      icon: "database",
      domain: "database",
      description:
        "Read a SQL database (PostgreSQL or SQLite): list its tables, describe a table's columns, and run read-only queries. Only SELECT, WITH, EXPLAIN, SHOW and DESCRIBE run; describe tables before querying them.",
      operations: {
        test_connection: testConnectionOperation,
        list_tables: listTablesOperation,
        table_schema: tableSchemaOperation,
        query: queryOperation,
      },
      capabilities: ["db.connect", "db.schema", "db.query"],
      secretInputs: ["dsn"],
      credentialHelp:
        "A connection URL for the database: postgresql://user:password@host:5432/database for PostgreSQL (a password with @, : or / must be percent-encoded), or sqlite:///absolute/path/to/file.db for a SQLite file. Prefer a user that may only read. Store it in Settings → Secrets and reference it as ${NAME}.",
    });
  }

  override checkSecret(name: string, value: string): string {
    if (name !== "dsn") return super.checkSecret(name, value);
    const parsed = parseDsn(value);
    return parsed.ok ? "" : parsed.problem;
  }

  override progressMessage(args: OperationArgs): string {
    if (args.operation === "table_schema" && typeof args.table === "string") return `Describing ${args.table}…`;
    if (args.operation === "query") return "Running a query…";
    return super.progressMessage(args);
  }
}
