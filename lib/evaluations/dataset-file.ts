import type { ApiIssue } from "@/lib/contracts/api-error";
import { DATASET_MAX_PROBLEMS, DATASET_MAX_ROWS, type DatasetFormat } from "@/lib/contracts/evaluation-dataset";
import { CsvParser, CsvSyntaxError, sniffDelimiter } from "@/lib/tools/builtin/data/csv-parser";
import type { InputField } from "@/lib/workflow/definition";
import { runInputsSchema } from "@/lib/workflow/run-inputs";

/**
 * Reads a dataset file against a workflow's input fields: every row checked
 * as a run's inputs are (the same schema the run form and the API use), and
 * every bad row named by its line in the file, so the person can fix the file
 * and upload it again. All or nothing: a file with a bad row makes no dataset.
 *
 * CSV: a header row naming the inputs (any order) and optionally `expected`;
 * an empty cell is a value not given (the field's default, or "required").
 * A workflow with an input of its own named `expected` reads that column as
 * the input: its expected outputs come in JSON Lines.
 * JSON Lines: one object per line, `{"inputs": {...}, "expected": ...}`.
 */

export interface DatasetFileRow {
  inputs: Record<string, unknown>;
  expected?: unknown;
}

export type DatasetFileResult = { rows: DatasetFileRow[] } | { issues: ApiIssue[] };

const EXPECTED = "expected";

export function parseDatasetFile(text: string, format: DatasetFormat, fields: readonly InputField[]): DatasetFileResult {
  const problems = new Problems(fields);
  const rows = format === "csv" ? readCsv(text, fields, problems) : readJsonLines(text, fields, problems);
  if (problems.issues.length === 0 && rows.length === 0) problems.add(1, null, "the file has no rows: nothing to evaluate");
  if (rows.length > DATASET_MAX_ROWS) problems.add(rows.at(-1)!.line, null, `the file has ${rows.length.toLocaleString("en")} rows; a dataset holds at most ${DATASET_MAX_ROWS.toLocaleString("en")}`);
  if (problems.issues.length > 0) return { issues: problems.issues };
  return { rows: rows.map(({ line: _line, ...row }) => row) };
}

type LinedRow = DatasetFileRow & { line: number };

/** "a number", "a boolean", "a string": a type as a sentence names it. */
const withArticle = (type: string) => `a ${type}`;

/** The bad rows found so far, each as an API issue; past DATASET_MAX_PROBLEMS, one more that says there are more. */
class Problems {
  readonly issues: ApiIssue[] = [];
  private readonly inputNames: string;

  constructor(private readonly fields: readonly InputField[]) {
    this.inputNames = fields.length === 0 ? "it has none" : `its inputs are ${fields.map((field) => field.name).join(", ")}`;
  }

  get full(): boolean {
    return this.issues.length > DATASET_MAX_PROBLEMS;
  }

  add(line: number, field: string | null, message: string): void {
    if (this.full) return;
    if (this.issues.length === DATASET_MAX_PROBLEMS) {
      this.issues.push({ path: `rows[${line}]`, message: `and more after line ${line}: fix these first`, code: "custom" });
      return;
    }
    this.issues.push({ path: field === null ? `rows[${line}]` : `rows[${line}].${field}`, message: `line ${line}: ${message}`, code: "custom" });
  }

  unknownInput(line: number, name: string): void {
    this.add(line, name, `“${name}” is not an input of this workflow (${this.inputNames})`);
  }

  /** Checks one row's inputs as a run's are checked; the row with its values as a run takes them (numbers, defaults), or null. */
  inputs(line: number, given: Record<string, unknown>): Record<string, unknown> | null {
    const parsed = runInputsSchema(this.fields).safeParse(given);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      if (issue.code === "unrecognized_keys") for (const key of issue.keys) this.unknownInput(line, key);
      else {
        const field = issue.path.map(String).join(".");
        const value = given[field];
        if (issue.code === "invalid_type" && value === undefined) this.add(line, field, `${field} is required`);
        else if (issue.code === "invalid_type") this.add(line, field, `${field}: expected ${withArticle(issue.expected)}, got ${JSON.stringify(value)}`);
        else this.add(line, field || null, `${field}: ${issue.message.replace(/^Invalid input: /, "")}`);
      }
    }
    return null;
  }
}

function readCsv(text: string, fields: readonly InputField[], problems: Problems): LinedRow[] {
  const records: { values: string[]; line: number }[] = [];
  const parser = new CsvParser(sniffDelimiter(text));
  const collect = (values: string[], line: number) => records.push({ values, line });
  try {
    parser.push(text.startsWith("\uFEFF") ? text.slice(1) : text, collect);
    parser.end(collect);
  } catch (error) {
    if (!CsvSyntaxError.isInstance(error)) throw error;
    problems.add(error.line, null, error.message);
    return [];
  }
  const [header, ...body] = records;
  if (!header) return [];
  const names = header.values.map((name) => name.trim());
  const inputs = new Set(fields.map((field) => field.name));
  const expectedColumn = inputs.has(EXPECTED) ? -1 : names.indexOf(EXPECTED);
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) problems.add(header.line, name, `the column “${name}” appears twice`);
    seen.add(name);
    if (name !== "" && !inputs.has(name) && !(name === EXPECTED && expectedColumn !== -1)) problems.unknownInput(header.line, name);
  }
  if (problems.issues.length > 0) return [];
  const rows: LinedRow[] = [];
  for (const { values, line } of body) {
    if (problems.full) break;
    if (values.length !== names.length) {
      problems.add(line, null, `has ${values.length} values; the header has ${names.length} columns`);
      continue;
    }
    const given: Record<string, unknown> = {};
    values.forEach((value, column) => {
      if (column !== expectedColumn && value !== "" && names[column] !== "") given[names[column]!] = value;
    });
    const checked = problems.inputs(line, given);
    if (!checked) continue;
    const expected = expectedColumn === -1 ? "" : values[expectedColumn]!;
    rows.push({ inputs: checked, ...(expected === "" ? {} : { expected }), line });
  }
  return rows;
}

function readJsonLines(text: string, fields: readonly InputField[], problems: Problems): LinedRow[] {
  const rows: LinedRow[] = [];
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length && !problems.full; index++) {
    const source = lines[index]!.trim();
    const line = index + 1;
    if (source === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(index === 0 && source.startsWith("\uFEFF") ? source.slice(1) : source);
    } catch (error) {
      problems.add(line, null, `is not JSON (${(error as Error).message})`);
      continue;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      problems.add(line, null, `is not an object: expected {"inputs": {…}, "expected": …}`);
      continue;
    }
    const { inputs, ...rest } = value as Record<string, unknown>;
    const extra = Object.keys(rest).filter((key) => key !== EXPECTED);
    for (const key of extra) problems.add(line, key, `“${key}” is not a key of a row: a row has inputs and, optionally, expected`);
    if (typeof inputs !== "object" || inputs === null || Array.isArray(inputs)) {
      problems.add(line, "inputs", `inputs must be an object of the workflow's inputs`);
      continue;
    }
    const checked = problems.inputs(line, inputs as Record<string, unknown>);
    if (!checked || extra.length > 0) continue;
    rows.push({ inputs: checked, ...(EXPECTED in rest ? { expected: rest[EXPECTED] } : {}), line });
  }
  return rows;
}
