import { z } from "zod";
import { defineOperation } from "../../../../operation";
import { ToolResult } from "../../../../tool-result";
import { renderTextTable } from "../../../shared/text-table";
import { DsnField } from "../dsn-field";
import { withDatabase } from "../with-database";

const TableSchemaArgs = z.object({
  dsn: DsnField,
  table: z
    .string()
    .trim()
    .min(1, "name the table to describe")
    .describe('The table or view to describe, optionally with its schema ("sales.orders"). Case is matched loosely.'),
});

/** Describes one table: its columns, their types, nullability, defaults, keys. */
export const tableSchemaOperation = defineOperation({
  title: "Describe a table",
  description: "Describe one table or view: its columns with types, nullability, defaults, primary key and foreign keys.",
  inputModel: TableSchemaArgs,
  capabilities: ["db.schema"],
  readOnly: true,
  async execute(args, ctx) {
    return withDatabase(args.dsn, ctx, async (session) => {
      const description = await session.describeTable(args.table);
      if (!description) {
        const known = (await session.listTables(51)).map((table) => (table.schema && table.schema !== "public" ? `${table.schema}.${table.name}` : table.name));
        const list = known.length === 0 ? "The database has no tables." : `Tables include: ${known.slice(0, 50).join(", ")}${known.length > 50 ? ", …" : ""}.`;
        return ToolResult.error(`\`table\`: there is no table or view named "${args.table}". ${list}`);
      }
      const { table, columns, foreignKeys, rowCount } = description;
      const qualified = table.schema ? `${table.schema}.${table.name}` : table.name;
      const size =
        rowCount !== undefined
          ? `, ${rowCount.toLocaleString("en-US")} rows`
          : table.rowEstimate !== undefined
            ? `, about ${table.rowEstimate.toLocaleString("en-US")} rows`
            : "";
      const lines = [
        `${table.kind[0]!.toUpperCase()}${table.kind.slice(1)} ${qualified} (${session.engine}), ${columns.length} columns${size}:`,
        renderTextTable(
          ["column", "type", "nullable", "default", "key"],
          columns.map((column) => [column.name, column.type, column.nullable ? "yes" : "no", column.default ?? "", column.primaryKey ? "primary" : ""]),
        ),
      ];
      if (foreignKeys.length > 0) lines.push("Foreign keys:", ...foreignKeys.map((key) => `  ${key}`));
      return ToolResult.ok(lines.join("\n"), { ...description, qualifiedName: qualified });
    });
  },
});
