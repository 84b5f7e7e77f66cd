/** Longest cell text shown in a text table; the structured data keeps more. */
const MAX_CELL_WIDTH = 60;
/** Longest string kept in structured data, so one huge cell cannot flood a result. */
export const MAX_DATA_STRING = 2_000;

/**
 * A value made safe for JSON and for the studio: bytes become a size note,
 * big integers and dates become text, long strings are cut.
 */
export function toJsonValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value.length > MAX_DATA_STRING ? `${value.slice(0, MAX_DATA_STRING)}…` : value;
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "boolean") return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  if (value instanceof Uint8Array) return `<${value.byteLength} bytes>`;
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = toJsonValue(item);
    return out;
  }
  return String(value);
}

/** One cell as a single line of text: null as `null`, objects as compact JSON, newlines shown as ⏎. */
export function cellText(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = "null";
  else if (typeof value === "string") text = value;
  else if (typeof value === "object") text = JSON.stringify(value) ?? String(value);
  else text = String(value);
  text = text.replace(/\r\n|\r|\n/g, "⏎").replace(/\t/g, " ").replace(/\|/g, "\\|");
  return text.length > MAX_CELL_WIDTH ? `${text.slice(0, MAX_CELL_WIDTH - 1)}…` : text;
}

/**
 * A Markdown-style table that reads well as plain text and renders in chat.
 *
 * @example
 *   renderTextTable(["id", "name"], [[1, "Ada"]])
 *   // | id | name |
 *   // |----|------|
 *   // | 1  | Ada  |
 */
export function renderTextTable(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  if (columns.length === 0) return "(no columns)";
  const header = columns.map((column) => cellText(column));
  const body = rows.map((row) => columns.map((_, index) => cellText(row[index])));
  const widths = header.map((title, index) => Math.max(title.length, 3, ...body.map((cells) => cells[index]!.length)));
  const line = (cells: readonly string[]) => `| ${cells.map((cell, index) => cell.padEnd(widths[index]!)).join(" | ")} |`;
  return [line(header), `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`, ...body.map(line)].join("\n");
}

/** "1 row", "1,234 rows". */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? noun : pluralNoun}`;
}
