/**
 * Finds the tables in a step's structured output, for the result panel:
 * `{ columns: [{ name }], rows: [[...]] }` (the data and sql tools),
 * `{ tables: [{ name, columns, rows }] }` (a SQLite file with several
 * tables), and plain arrays of objects (records).
 */

export interface ResultTable {
  /** A caption: the table's name, when it has one. */
  name: string | null;
  columns: string[];
  /** Each row aligned with `columns`. */
  rows: unknown[][];
  /** Rows in the whole result, when more exist than are shown. */
  rowCount: number | null;
}

/** Rows beyond this are not rendered; the caption says how many there were. */
export const MAX_TABLE_ROWS = 200;

export function resultTables(data: unknown): ResultTable[] {
  if (Array.isArray(data)) {
    const table = recordsTable(data, null);
    return table ? [table] : [];
  }
  if (!isRecord(data)) return [];
  const top = columnsAndRows(data, typeof data.table === "string" ? data.table : null);
  if (top) return [top];
  if (Array.isArray(data.tables)) {
    return data.tables.flatMap((each) => {
      if (!isRecord(each)) return [];
      const table = columnsAndRows(each, typeof each.name === "string" ? each.name : null);
      return table ? [table] : [];
    });
  }
  // One level down: { items: [{...}, ...] } and similar.
  for (const [key, value] of Object.entries(data)) {
    if (Array.isArray(value)) {
      const table = recordsTable(value, key);
      if (table) return [table];
    }
  }
  return [];
}

function columnsAndRows(data: Record<string, unknown>, name: string | null): ResultTable | null {
  if (!Array.isArray(data.columns) || !Array.isArray(data.rows)) return null;
  const columns = data.columns.map((column, index) =>
    typeof column === "string" ? column : isRecord(column) && typeof column.name === "string" ? column.name : `column ${index + 1}`,
  );
  const rows = data.rows.slice(0, MAX_TABLE_ROWS).map((row): unknown[] => {
    if (Array.isArray(row)) return row;
    // A row keyed by column (the sql tool's, whose repeated names are keyed id_2, …): one key per column, in order.
    if (isRecord(row)) {
      const values = Object.values(row);
      return values.length === columns.length ? values : columns.map((column) => row[column]);
    }
    return [row];
  });
  const rowCount = typeof data.rowCount === "number" ? data.rowCount : data.rows.length;
  return { name, columns, rows, rowCount };
}

function recordsTable(items: readonly unknown[], name: string | null): ResultTable | null {
  if (items.length === 0 || !items.every(isRecord)) return null;
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const item of items.slice(0, MAX_TABLE_ROWS)) {
    for (const key of Object.keys(item)) {
      if (!seen.has(key)) {
        seen.add(key);
        columns.push(key);
      }
    }
  }
  if (columns.length === 0) return null;
  const rows = items.slice(0, MAX_TABLE_ROWS).map((item) => columns.map((column) => (item as Record<string, unknown>)[column]));
  return { name, columns, rows, rowCount: items.length };
}

/** A cell as text: strings as they are, null as an empty cell, objects as compact JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
