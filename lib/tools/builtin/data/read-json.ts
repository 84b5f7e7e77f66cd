import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import { ColumnTypeAccumulator } from "./column-types";
import { findJsonSyntaxError } from "./json-syntax";
import { DataFileError, type TablePreview } from "./table-preview";

/** A JSON document must be parsed whole; beyond this size, JSON Lines is the way. */
export const MAX_JSON_BYTES = 64 * 1024 * 1024;

/** The column holding values that are not objects (an array of numbers, a line holding a string). */
const VALUE_COLUMN = "value";

/**
 * Builds columns from records as they arrive: the union of keys in the order
 * first seen, each typed over every record, with the first rows kept.
 */
class RecordCollector {
  private readonly accumulators = new Map<string, ColumnTypeAccumulator>();
  private readonly kept: Record<string, unknown>[] = [];
  rowCount = 0;

  constructor(private readonly keep: number) {}

  add(value: unknown): void {
    const record: Record<string, unknown> =
      value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { [VALUE_COLUMN]: value };
    for (const key of Object.keys(record)) {
      if (!this.accumulators.has(key)) {
        const accumulator = new ColumnTypeAccumulator("typed");
        accumulator.addNulls(this.rowCount);
        this.accumulators.set(key, accumulator);
      }
    }
    for (const [key, accumulator] of this.accumulators) accumulator.addValue(record[key]);
    if (this.kept.length < this.keep) this.kept.push(record);
    this.rowCount += 1;
  }

  preview(notes: string[]): TablePreview {
    const names = [...this.accumulators.keys()];
    return {
      columns: names.map((name) => ({ name, ...this.accumulators.get(name)!.result() })),
      rows: this.kept.map((record) => names.map((name) => record[name] ?? null)),
      rowCount: this.rowCount,
      notes,
    };
  }
}

function syntaxError(text: string, prefix: string, fallback: string): DataFileError {
  const problem = findJsonSyntaxError(text);
  if (!problem) return new DataFileError(`${prefix}: ${fallback}`);
  const hint = problem.message.includes("after the end of the JSON value")
    ? ' If the file holds one JSON value per line, pass format "jsonl".'
    : "";
  return new DataFileError(`${prefix} at line ${problem.line}, column ${problem.column}: ${problem.message}.${hint}`);
}

/**
 * Reads a JSON document: an array of records (or of plain values), an object
 * holding such an array under one key (`{"data": [...]}`), or a single object
 * shown as one row.
 */
export async function readJson(file: string, rows: number): Promise<TablePreview> {
  const { size } = await stat(file);
  if (size > MAX_JSON_BYTES) {
    throw new DataFileError(
      `The file is ${(size / 1024 / 1024).toFixed(0)} MB; JSON documents over ${MAX_JSON_BYTES / 1024 / 1024} MB are not loaded whole. Convert it to JSON Lines (one record per line), which is read as a stream.`,
    );
  }
  let text = await readFile(file, "utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === "") throw new DataFileError("The file is empty; expected a JSON array or object.");
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw syntaxError(text, "The file is not valid JSON", error instanceof Error ? error.message : String(error));
  }

  const notes: string[] = [];
  let records: unknown[];
  if (Array.isArray(document)) {
    records = document;
  } else if (document !== null && typeof document === "object") {
    const key = rowsKeyOf(document as Record<string, unknown>);
    if (key !== null) {
      records = (document as Record<string, unknown[]>)[key]!;
      notes.push(`Rows are the array under the key "${key}"; the other keys of the top-level object are not shown.`);
    } else {
      records = [document];
      notes.push("The file holds a single object: its keys are shown as the columns of one row.");
    }
  } else {
    records = [document];
    notes.push("The file holds a single value, not a list of records.");
  }
  const collector = new RecordCollector(rows);
  for (const record of records) collector.add(record);
  return collector.preview(notes);
}

/**
 * The key of an object whose value is the list of records: the only key
 * holding an array, or the one holding the longest array of objects.
 */
function rowsKeyOf(document: Record<string, unknown>): string | null {
  const arrays = Object.entries(document).filter((entry): entry is [string, unknown[]] => Array.isArray(entry[1]));
  if (arrays.length === 0) return null;
  if (arrays.length === 1) return arrays[0]![0];
  const ofObjects = arrays.filter(([, items]) => items.length > 0 && items.every((item) => item !== null && typeof item === "object" && !Array.isArray(item)));
  const candidates = ofObjects.length > 0 ? ofObjects : arrays;
  return candidates.reduce((best, entry) => (entry[1].length > best[1].length ? entry : best))[0];
}

/** Streams a JSON Lines file: one JSON value per line, blank lines skipped. */
export async function readJsonLines(file: string, rows: number, signal: AbortSignal): Promise<TablePreview> {
  const stream = createReadStream(file, { encoding: "utf8", highWaterMark: 256 * 1024 });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  const collector = new RecordCollector(rows);
  let lineNumber = 0;
  try {
    for await (const rawLine of lines) {
      lineNumber += 1;
      if (signal.aborted) throw new DataFileError("Reading the file was cancelled.");
      const line = lineNumber === 1 && rawLine.charCodeAt(0) === 0xfeff ? rawLine.slice(1) : rawLine;
      if (line.trim() === "") continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        const problem = findJsonSyntaxError(line);
        const where = problem ? `line ${lineNumber}, column ${problem.column}: ${problem.message}` : `line ${lineNumber}: ${error instanceof Error ? error.message : String(error)}`;
        throw new DataFileError(
          `The file is not valid JSON Lines at ${where}. Each line must hold one complete JSON value${lineNumber === 1 ? "; if the file is one JSON document spread over lines, pass format \"json\"" : ""}.`,
        );
      }
      collector.add(value);
    }
  } finally {
    lines.close();
    stream.destroy();
  }
  if (collector.rowCount === 0) throw new DataFileError("The file is empty; expected one JSON value per line.");
  return collector.preview([]);
}
