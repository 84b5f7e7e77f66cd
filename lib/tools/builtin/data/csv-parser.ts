import { markedError } from "../../../marked-error";

/** A CSV file that cannot be read as records; the message names the line. */
export class CsvSyntaxError extends markedError("neurosurfer.csv-syntax", "CsvSyntaxError") {
  constructor(message: string, readonly line: number) {
    super(message);
  }
}

/** One record and the line it starts on (1-based). */
export type RecordHandler = (fields: string[], line: number) => void;

/** A field larger than this almost always means an unbalanced quote swallowed the rest of the file. */
const MAX_FIELD_LENGTH = 10 * 1024 * 1024;

/**
 * An incremental RFC 4180 parser: feed it chunks as they are read and it
 * hands back whole records, so a large file never sits in memory at once.
 * Handles quoted fields, doubled quotes, delimiters and newlines inside
 * quotes, and LF, CRLF or CR line ends. Lenient where files in the wild are
 * sloppy: a quote inside an unquoted field is kept as text, and blank lines
 * are skipped.
 *
 * @example
 *   const records: string[][] = [];
 *   const parser = new CsvParser(",");
 *   parser.push('id,name\r\n1,"Ada ""the first"""\r\n', (fields) => records.push(fields));
 *   parser.end((fields) => records.push(fields));
 *   // [["id", "name"], ["1", 'Ada "the first"']]
 */
export class CsvParser {
  private field = "";
  private fields: string[] = [];
  /** The current field began with a quote (so it is not blank even if empty). */
  private fieldQuoted = false;
  private inQuotes = false;
  /** Saw a quote inside a quoted field; the next character decides if it was doubled. */
  private quotePending = false;
  /** Saw a CR; a following LF belongs to the same line end. */
  private skipLineFeed = false;
  private line = 1;
  private recordLine = 1;
  private quoteLine = 1;

  constructor(private readonly delimiter = ",") {
    if (delimiter.length !== 1 || delimiter === '"' || delimiter === "\n" || delimiter === "\r") {
      throw new Error(`Unusable CSV delimiter ${JSON.stringify(delimiter)}.`);
    }
  }

  push(chunk: string, onRecord: RecordHandler): void {
    const delimiter = this.delimiter;
    for (let index = 0; index < chunk.length; index += 1) {
      const character = chunk[index]!;
      if (this.skipLineFeed) {
        this.skipLineFeed = false;
        if (character === "\n") continue;
      }
      if (this.quotePending) {
        this.quotePending = false;
        if (character === '"') {
          this.field += '"';
          continue;
        }
        this.inQuotes = false;
        // fall through: the character after a closing quote is read as unquoted
      } else if (this.inQuotes) {
        if (character === '"') {
          this.quotePending = true;
        } else {
          if (character === "\n" || (character === "\r" && chunk[index + 1] !== "\n")) this.line += 1;
          this.field += character;
          if (this.field.length > MAX_FIELD_LENGTH) {
            throw new CsvSyntaxError(
              `A quoted field starting on line ${this.quoteLine} is longer than 10 MB; a quote is probably not closed.`,
              this.quoteLine,
            );
          }
        }
        continue;
      }

      if (character === delimiter) {
        this.endField();
      } else if (character === "\n" || character === "\r") {
        this.endRecord(onRecord);
        this.line += 1;
        this.recordLine = this.line;
        if (character === "\r") this.skipLineFeed = true;
      } else if (character === '"' && this.field === "" && !this.fieldQuoted) {
        this.inQuotes = true;
        this.fieldQuoted = true;
        this.quoteLine = this.line;
      } else {
        this.field += character;
        if (this.field.length > MAX_FIELD_LENGTH) {
          throw new CsvSyntaxError(`A field on line ${this.line} is longer than 10 MB; this does not look like a CSV file.`, this.line);
        }
      }
    }
  }

  /** Flushes the last record; refuses a quote left open at the end of the file. */
  end(onRecord: RecordHandler): void {
    if (this.quotePending) {
      this.quotePending = false;
      this.inQuotes = false;
    }
    if (this.inQuotes) {
      throw new CsvSyntaxError(
        `The quoted field starting on line ${this.quoteLine} is never closed: the file ends inside it. Check for a missing '"'.`,
        this.quoteLine,
      );
    }
    this.endRecord(onRecord);
  }

  private endField(): void {
    this.fields.push(this.field);
    this.field = "";
    this.fieldQuoted = false;
  }

  private endRecord(onRecord: RecordHandler): void {
    const blank = this.fields.length === 0 && this.field === "" && !this.fieldQuoted;
    if (blank) return;
    this.endField();
    const fields = this.fields;
    this.fields = [];
    onRecord(fields, this.recordLine);
  }
}

/** Parses a whole CSV text at once (small inputs and tests). */
export function parseCsv(text: string, delimiter = ","): string[][] {
  const records: string[][] = [];
  const parser = new CsvParser(delimiter);
  const collect: RecordHandler = (fields) => records.push(fields);
  parser.push(text, collect);
  parser.end(collect);
  return records;
}

/**
 * Guesses the delimiter of a `.csv` file from its first line: a comma unless
 * the line has none and has semicolons (European exports) or tabs.
 */
export function sniffDelimiter(firstChunk: string): string {
  const firstLine = firstChunk.split(/\r\n|\r|\n/, 1)[0] ?? "";
  const unquoted = firstLine.replace(/"[^"]*"/g, "");
  const count = (character: string) => unquoted.split(character).length - 1;
  if (count(",") > 0) return ",";
  if (count(";") > 0) return ";";
  if (count("\t") > 0) return "\t";
  return ",";
}
