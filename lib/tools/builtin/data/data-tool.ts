import { stat } from "node:fs/promises";
import { z } from "zod";
import { relativeToRoot } from "../../confinement";
import { CoreTool } from "../shared/core-tool";
import type { ToolContext } from "../../tool-context";
import { ToolResult } from "../../tool-result";
import { MAX_RESULT_CHARACTERS, truncateMiddle } from "../shared/limits";
import { WorkingDirectory } from "../shared/working-directory";
import { type ColumnSummary, describeColumnType } from "./column-types";
import { CsvSyntaxError } from "./csv-parser";
import { DATA_FORMATS, type DataFormat, detectFormat } from "./detect-format";
import { readDelimited } from "./read-delimited";
import { readJson, readJsonLines } from "./read-json";
import { readSqlite } from "./read-sqlite";
import { DataFileError, type TablePreview } from "./table-preview";
import { plural, renderTextTable, toJsonValue } from "../shared/text-table";

const DataArgs = z.object({
  path: z
    .string()
    .trim()
    .min(1, "give the path of the data file")
    .describe('The data file, relative to the step\'s folder (e.g. "exports/sales.csv"). CSV, TSV, JSON, JSON Lines or SQLite.'),
  rows: z
    .number()
    .int()
    .min(0)
    .max(100, "show at most 100 rows; the row count covers the whole file")
    .default(5)
    .describe("How many of the first rows to show (0 to 100)."),
  table: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe("SQLite files only: describe just this table instead of every table."),
  format: z
    .enum(DATA_FORMATS)
    .optional()
    .describe("The file's format, when its extension does not say (e.g. a .txt that holds CSV)."),
});
type DataArgs = z.infer<typeof DataArgs>;

/** Columns listed in the text before the rest are only counted; the structured data keeps them all. */
const MAX_TEXT_COLUMNS = 100;

const FORMAT_NAMES: Readonly<Record<DataFormat, string>> = {
  csv: "CSV",
  tsv: "TSV",
  json: "JSON",
  jsonl: "JSON Lines",
  sqlite: "SQLite",
};

/**
 * Describes a data file under the step's folder: its columns with inferred
 * types, the first rows, and the row count. Large CSV, TSV and JSON Lines
 * files are streamed, never loaded whole.
 */
export class DataTool extends CoreTool<DataArgs> {
  constructor() {
    super({
      name: "data",
      title: "Data Files",
      icon: "table",
      domain: "data",
      description:
        "Inspect a data file (CSV, TSV, JSON, JSON Lines or SQLite) in the step's folder: its columns with inferred types, the first rows, and how many rows it has. For SQLite, every table (or the one named by `table`). Use it before writing code or queries against a file.",
      inputModel: DataArgs,
      capabilities: ["data.inspect"],
      settingsModel: WorkingDirectory,
      rootSetting: "root",
      pathInputs: ["path"],
      readOnly: true,
    });
  }

  override progressMessage(args: DataArgs): string {
    return `Inspecting ${args.path}…`;
  }

  override async call(args: DataArgs, ctx: ToolContext): Promise<ToolResult> {
    const shownPath = ctx.root ? relativeToRoot(ctx.root, args.path) : args.path;
    try {
      const info = await stat(args.path).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT" || error.code === "ENOTDIR") return null;
        throw error;
      });
      if (!info) return ToolResult.error(`\`path\`: no such file: ${shownPath}. Check the name, or list the folder to see what is there.`);
      if (info.isDirectory()) return ToolResult.error(`\`path\`: ${shownPath} is a folder, not a data file. Give the path of a file inside it.`);

      let format = args.format;
      if (!format) {
        const detected = await detectFormat(args.path);
        if ("problem" in detected) return ToolResult.error(`\`path\`: ${shownPath}: ${detected.problem}`);
        format = detected.format;
      }
      if (args.table !== undefined && format !== "sqlite") {
        return ToolResult.error(`\`table\`: only SQLite files have tables; ${shownPath} is read as ${FORMAT_NAMES[format]}. Leave \`table\` out.`);
      }

      if (format === "sqlite") {
        const preview = await readSqlite(args.path, args.rows, args.table);
        return sqliteResult(shownPath, info.size, preview.tables, preview.otherTables, args.rows);
      }
      const preview = await readFlatFile(format, args.path, args.rows, ctx.signal);
      return flatFileResult(shownPath, format, info.size, preview, args.rows);
    } catch (error) {
      if (DataFileError.isInstance(error)) return ToolResult.error(`${shownPath}: ${error.message}`);
      if (CsvSyntaxError.isInstance(error)) return ToolResult.error(`${shownPath} is not valid CSV: ${error.message}`);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EACCES" || code === "EPERM") return ToolResult.error(`\`path\`: ${shownPath} cannot be read: permission denied.`);
      throw error;
    }
  }
}

function readFlatFile(format: Exclude<DataFormat, "sqlite">, file: string, rows: number, signal: AbortSignal): Promise<TablePreview> {
  switch (format) {
    case "csv":
      return readDelimited(file, { delimiter: null, rows, signal });
    case "tsv":
      return readDelimited(file, { delimiter: "\t", rows, signal });
    case "json":
      return readJson(file, rows);
    case "jsonl":
      return readJsonLines(file, rows, signal);
  }
}

function flatFileResult(shownPath: string, format: DataFormat, size: number, preview: TablePreview, rowsAsked: number): ToolResult {
  const rows = preview.rows.map((row) => row.map(toJsonValue));
  const text = [
    `${shownPath} — ${FORMAT_NAMES[format]}, ${plural(preview.rowCount, "row")}, ${plural(preview.columns.length, "column")}, ${formatBytes(size)}.`,
    ...preview.notes.map((note) => `Note: ${note}`),
    describeTable(preview.columns, rows, preview.rowCount, rowsAsked),
  ].join("\n");
  return ToolResult.ok(truncateMiddle(text, MAX_RESULT_CHARACTERS), {
    format,
    path: shownPath,
    columns: preview.columns,
    rows,
    rowCount: preview.rowCount,
    notes: preview.notes,
  });
}

function sqliteResult(
  shownPath: string,
  size: number,
  tables: (TablePreview & { name: string; kind: "table" | "view" })[],
  otherTables: string[],
  rowsAsked: number,
): ToolResult {
  const total = tables.length + otherTables.length;
  const sections = [`${shownPath} — SQLite database, ${plural(total, "table")} (views included), ${formatBytes(size)}.`];
  if (total === 0) sections.push("The database has no tables.");
  for (const table of tables) {
    sections.push(`\n## ${table.kind === "view" ? "View" : "Table"} ${table.name} — ${plural(table.rowCount, "row")}`);
    sections.push(...table.notes.map((note) => `Note: ${note}`));
    if (table.columns.length > 0) sections.push(describeTable(table.columns, table.rows, table.rowCount, rowsAsked));
  }
  if (otherTables.length > 0) {
    sections.push(`\n${otherTables.length} more tables not described here (pass \`table\` to see one): ${otherTables.join(", ")}`);
  }
  const data: Record<string, unknown> = {
    format: "sqlite",
    path: shownPath,
    tables: tables.map(({ name, kind, columns, rows, rowCount, notes }) => ({ name, kind, columns, rows, rowCount, notes })),
    otherTables,
  };
  // One table (or `table` given): also at the top level, like every other format, so one renderer fits all.
  if (tables.length === 1) Object.assign(data, { table: tables[0]!.name, columns: tables[0]!.columns, rows: tables[0]!.rows, rowCount: tables[0]!.rowCount });
  return ToolResult.ok(truncateMiddle(sections.join("\n"), MAX_RESULT_CHARACTERS), data);
}

function describeTable(columns: readonly ColumnSummary[], rows: readonly unknown[][], rowCount: number, rowsAsked: number): string {
  const shownColumns = columns.slice(0, MAX_TEXT_COLUMNS);
  const width = Math.min(40, Math.max(...shownColumns.map((column) => column.name.length), 4));
  const lines = ["Columns:", ...shownColumns.map((column) => `  ${column.name.padEnd(width)}  ${describeColumnType(column)}`)];
  if (columns.length > shownColumns.length) lines.push(`  … and ${columns.length - shownColumns.length} more columns (all are in the structured data).`);
  if (rowsAsked === 0) return lines.join("\n");
  if (rows.length === 0) {
    lines.push(rowCount === 0 ? "No rows." : "No rows shown.");
    return lines.join("\n");
  }
  lines.push(
    rows.length < rowCount ? `First ${plural(rows.length, "row")} of ${rowCount.toLocaleString("en-US")}:` : `All ${plural(rows.length, "row")}:`,
  );
  lines.push(renderTextTable(shownColumns.map((column) => column.name), rows.map((row) => row.slice(0, shownColumns.length))));
  return lines.join("\n");
}

function formatBytes(size: number): string {
  if (size < 1024) return `${size} bytes`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}
