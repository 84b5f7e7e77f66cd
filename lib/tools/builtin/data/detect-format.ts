import { open } from "node:fs/promises";
import path from "node:path";
import { SQLITE_MAGIC } from "../shared/sqlite-file";

export const DATA_FORMATS = ["csv", "tsv", "json", "jsonl", "sqlite"] as const;
export type DataFormat = (typeof DATA_FORMATS)[number];

const BY_EXTENSION: Readonly<Record<string, DataFormat>> = {
  ".csv": "csv",
  ".tsv": "tsv",
  ".tab": "tsv",
  ".json": "json",
  ".geojson": "json",
  ".jsonl": "jsonl",
  ".ndjson": "jsonl",
  ".sqlite": "sqlite",
  ".sqlite3": "sqlite",
  ".db": "sqlite",
  ".db3": "sqlite",
};

/** Formats people often try, with what to do instead. */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  ".xlsx": "Excel workbooks are not supported; export the sheet to CSV first.",
  ".xls": "Excel workbooks are not supported; export the sheet to CSV first.",
  ".ods": "OpenDocument spreadsheets are not supported; export the sheet to CSV first.",
  ".parquet": "Parquet files are not supported; convert to CSV or JSON Lines first.",
  ".feather": "Feather/Arrow files are not supported; convert to CSV or JSON Lines first.",
  ".arrow": "Feather/Arrow files are not supported; convert to CSV or JSON Lines first.",
  ".xml": "XML files are not supported; this tool reads CSV, TSV, JSON, JSON Lines and SQLite.",
  ".gz": "Compressed files are not read directly; decompress it first.",
  ".zip": "Compressed files are not read directly; decompress it first.",
};

/** The outcome of detection: a format, or a message saying why there is none. */
export type FormatDetection = { format: DataFormat } | { problem: string };

/**
 * The format of `file`: a SQLite header always wins (a `.db` that is not
 * SQLite is refused later), then the extension, then a look at the first
 * bytes for files whose extension says nothing.
 */
export async function detectFormat(file: string): Promise<FormatDetection> {
  const head = await readHead(file, 512);
  if (head.subarray(0, 16).toString("latin1") === SQLITE_MAGIC) return { format: "sqlite" };
  const extension = path.extname(file).toLowerCase();
  const known = BY_EXTENSION[extension];
  if (known) return { format: known };
  const unsupported = UNSUPPORTED[extension];
  if (unsupported) return { problem: unsupported };

  const text = head.toString("utf8").replace(/^\uFEFF/, "").trimStart();
  if (head.includes(0)) {
    return { problem: "The file is binary and not a SQLite database. This tool reads CSV, TSV, JSON, JSON Lines and SQLite files." };
  }
  if (text.startsWith("[")) return { format: "json" };
  if (text.startsWith("{")) {
    // One object per line is JSON Lines; an object spread over lines is a JSON document.
    const firstLine = text.split(/\r?\n/, 1)[0]!.trim();
    return { format: firstLine.endsWith("}") && firstLine.length > 1 ? "jsonl" : "json" };
  }
  return {
    problem: `Cannot tell the format of a file ${extension ? `ending in "${extension}"` : "without an extension"}. Pass \`format\` (one of ${DATA_FORMATS.join(", ")}).`,
  };
}

async function readHead(file: string, length: number): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
