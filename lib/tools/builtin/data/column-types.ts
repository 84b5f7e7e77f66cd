/**
 * The types the data tools report for a column. `null` means every value seen
 * was empty; `mixed` means a JSON column holds values of unrelated kinds.
 */
export type ColumnType = "integer" | "number" | "boolean" | "date" | "string" | "object" | "array" | "mixed" | "null";

/** A column as the studio renders it: name, inferred type, and whether empty values occur. */
export interface ColumnSummary {
  name: string;
  type: ColumnType;
  nullable: boolean;
  /** The type a database declared, when there is one (SQLite, PostgreSQL). */
  declaredType?: string;
}

type ValueKind = Exclude<ColumnType, "mixed" | "null">;

// Leading zeros ("007", zip codes) are identifiers, not numbers: keep them text.
const INTEGER_TEXT = /^[+-]?(?:0|[1-9]\d*)$/;
const NUMBER_TEXT = /^[+-]?(?:(?:0|[1-9]\d*)(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const BOOLEAN_TEXT = /^(?:true|false)$/i;
const DATE_TEXT = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const NULL_TEXT = new Set(["", "null", "NULL"]);

function isDateText(text: string): boolean {
  return DATE_TEXT.test(text) && !Number.isNaN(Date.parse(text.replace(" ", "T")));
}

/** The kind of one field read from text (CSV, TSV): `null` for an empty field. */
export function kindOfText(value: string): ValueKind | null {
  const text = value.trim();
  if (NULL_TEXT.has(text)) return null;
  if (INTEGER_TEXT.test(text)) return "integer";
  if (NUMBER_TEXT.test(text)) return "number";
  if (BOOLEAN_TEXT.test(text)) return "boolean";
  if (isDateText(text)) return "date";
  return "string";
}

/** The kind of one decoded value (JSON, database rows): `null` for null or undefined. */
export function kindOfValue(value: unknown): ValueKind | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (typeof value === "bigint") return "integer";
  if (typeof value === "boolean") return "boolean";
  if (value instanceof Date) return "date";
  if (typeof value === "string") return isDateText(value) ? "date" : "string";
  if (Array.isArray(value)) return "array";
  return "object";
}

/**
 * Collects the kinds seen in one column and settles on a type: integers
 * widen to numbers, dates widen to strings; anything else that disagrees is
 * `string` for text sources and `mixed` for typed ones.
 */
export class ColumnTypeAccumulator {
  private readonly kinds = new Set<ValueKind>();
  private nulls = 0;

  constructor(private readonly source: "text" | "typed") {}

  addText(value: string | undefined): void {
    this.addKind(value === undefined ? null : kindOfText(value));
  }

  addValue(value: unknown): void {
    this.addKind(kindOfValue(value));
  }

  addKind(kind: ValueKind | null): void {
    if (kind === null) this.nulls += 1;
    else this.kinds.add(kind);
  }

  /** Counts missing values in rows seen before this column first appeared. */
  addNulls(count: number): void {
    this.nulls += count;
  }

  result(): { type: ColumnType; nullable: boolean } {
    return { type: this.type(), nullable: this.nulls > 0 || this.kinds.size === 0 };
  }

  private type(): ColumnType {
    const kinds = this.kinds;
    if (kinds.size === 0) return "null";
    if (kinds.size === 1) return [...kinds][0]!;
    if ([...kinds].every((kind) => kind === "integer" || kind === "number")) return "number";
    if ([...kinds].every((kind) => kind === "string" || kind === "date")) return "string";
    return this.source === "text" ? "string" : "mixed";
  }
}

/** Maps a type a database declared ("VARCHAR(20)", "int8", "timestamptz") to a column type. */
export function typeFromDeclared(declared: string): ColumnType | null {
  const text = declared.toLowerCase();
  if (text === "") return null;
  if (/bool/.test(text)) return "boolean";
  if (/\[\]$|^_|^array/.test(text)) return "array";
  if (/interval|point/.test(text)) return "string";
  if (/int|serial|oid/.test(text)) return "integer";
  if (/real|floa|doub|num|dec|money/.test(text)) return "number";
  if (/date|time/.test(text)) return "date";
  if (/json/.test(text)) return "object";
  return "string";
}

/** "integer", "number, nullable", "string (declared VARCHAR(20))". */
export function describeColumnType(column: ColumnSummary): string {
  const parts: string[] = [column.type];
  if (column.nullable && column.type !== "null") parts[0] += ", nullable";
  if (column.declaredType && column.declaredType.toLowerCase() !== column.type) parts.push(`(declared ${column.declaredType})`);
  return parts.join(" ");
}
