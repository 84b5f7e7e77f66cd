import { z } from "zod";
import { defineOperation } from "../../../../operation";
import { ToolResult } from "../../../../tool-result";
import { renderTextTable } from "../../../shared/text-table";
import { DsnField } from "../dsn-field";
import { withDatabase } from "../with-database";

/** Beyond this many the list is cut; `table_schema` still reaches any table by name. */
const MAX_TABLES = 500;

const ListTablesArgs = z.object({ dsn: DsnField });

/** Lists the tables and views the connection can see. */
export const listTablesOperation = defineOperation({
  title: "List tables",
  description: "List the tables and views of the database (with their schema in PostgreSQL).",
  inputModel: ListTablesArgs,
  capabilities: ["db.schema"],
  readOnly: true,
  async execute(args, ctx) {
    return withDatabase(args.dsn, ctx, async (session) => {
      const listed = await session.listTables(MAX_TABLES + 1);
      const truncated = listed.length > MAX_TABLES;
      const tables = listed.slice(0, MAX_TABLES);
      if (tables.length === 0) return ToolResult.ok("The database has no tables or views.", { tables: [], truncated: false });
      const withSchema = tables.some((table) => table.schema !== undefined);
      const withEstimate = tables.some((table) => table.rowEstimate !== undefined);
      const columns = [...(withSchema ? ["schema"] : []), "name", "kind", ...(withEstimate ? ["rows (estimate)"] : [])];
      const rows = tables.map((table) => [
        ...(withSchema ? [table.schema ?? ""] : []),
        table.name,
        table.kind,
        ...(withEstimate ? [table.rowEstimate ?? ""] : []),
      ]);
      const heading = truncated
        ? `The first ${MAX_TABLES} tables and views (there are more; use table_schema with a name to reach any of them):`
        : `${tables.length} ${tables.length === 1 ? "table or view" : "tables and views"}:`;
      return ToolResult.ok(`${heading}\n${renderTextTable(columns, rows)}`, { tables, truncated });
    });
  },
});
