import { createReadStream } from "node:fs";
import { ColumnTypeAccumulator } from "./column-types";
import { CsvParser, sniffDelimiter } from "./csv-parser";
import { DataFileError, type TablePreview, uniqueColumnNames } from "./table-preview";

export interface DelimitedOptions {
  /** `null` sniffs it from the first line. */
  delimiter: string | null;
  rows: number;
  signal: AbortSignal;
}

/** How many ragged rows are named individually before the rest are only counted. */
const RAGGED_EXAMPLES = 3;

/**
 * Streams a CSV or TSV file once: the first record is the header, every
 * record is counted and typed, and only the first `rows` are kept.
 */
export async function readDelimited(file: string, options: DelimitedOptions): Promise<TablePreview> {
  const stream = createReadStream(file, { encoding: "utf8", highWaterMark: 256 * 1024 });
  let parser: CsvParser | null = null;
  let header: string[] | null = null;
  let accumulators: ColumnTypeAccumulator[] = [];
  const rows: unknown[][] = [];
  let rowCount = 0;
  let ragged = 0;
  const raggedExamples: string[] = [];

  const onRecord = (fields: string[], line: number) => {
    if (header === null) {
      header = uniqueColumnNames(fields);
      accumulators = header.map(() => new ColumnTypeAccumulator("text"));
      return;
    }
    rowCount += 1;
    if (fields.length !== header.length) {
      ragged += 1;
      if (raggedExamples.length < RAGGED_EXAMPLES) raggedExamples.push(`line ${line} has ${fields.length}`);
    }
    for (let index = 0; index < accumulators.length; index += 1) accumulators[index]!.addText(fields[index]);
    if (rows.length < options.rows) rows.push(header.map((_, index) => fields[index] ?? null));
  };

  try {
    let first = true;
    for await (const chunk of stream) {
      if (options.signal.aborted) throw new DataFileError("Reading the file was cancelled.");
      let text = chunk as string;
      if (first) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        if (text.includes("\u0000")) {
          throw new DataFileError("The file contains NUL bytes: it looks binary, not a text CSV/TSV file. Pass `format` if it is something else.");
        }
        parser = new CsvParser(options.delimiter ?? sniffDelimiter(text));
      }
      parser!.push(text, onRecord);
    }
    parser?.end(onRecord);
  } finally {
    stream.destroy();
  }

  const finalHeader = header as string[] | null;
  if (finalHeader === null) throw new DataFileError("The file is empty: there is no header line.");
  const notes: string[] = [];
  if (ragged > 0) {
    notes.push(
      `${ragged} row${ragged === 1 ? "" : "s"} do not have ${finalHeader.length} fields like the header (${raggedExamples.join(", ")}${ragged > RAGGED_EXAMPLES ? ", …" : ""}); missing fields are shown as null and extra ones are ignored.`,
    );
  }
  if (finalHeader.length === 1 && rowCount > 0) {
    notes.push("Only one column was found; if the file uses another delimiter, pass `format` (csv or tsv).");
  }
  return {
    columns: finalHeader.map((name, index) => ({ name, ...accumulators[index]!.result() })),
    rows,
    rowCount,
    notes,
  };
}
