import type { ColumnSummary } from "./column-types";
import { markedError } from "../../../marked-error";

/** What a reader learned about one table of data: its columns, first rows and size. */
export interface TablePreview {
  /** The table's name, for files holding several (SQLite). */
  name?: string;
  columns: ColumnSummary[];
  /** The first rows, each aligned with `columns`. */
  rows: unknown[][];
  rowCount: number;
  /** Things a reader should know: ragged rows, which key the rows came from, caps applied. */
  notes: string[];
}

/** Thrown by readers for a file that is not what its format says; becomes a `ToolResult.error`. */
export class DataFileError extends markedError("neurosurfer.data-file", "DataFileError") {}

/** Column names made unique and non-empty: "", "id", "id" -> "column_1", "id", "id_2". */
export function uniqueColumnNames(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((raw, index) => {
    const base = raw.trim() === "" ? `column_${index + 1}` : raw;
    let name = base;
    for (let suffix = 2; used.has(name); suffix += 1) name = `${base}_${suffix}`;
    used.add(name);
    return name;
  });
}
