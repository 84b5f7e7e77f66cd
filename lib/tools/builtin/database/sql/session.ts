import type { ToolErrorKind } from "../../../tool-error";
import type { ParsedDsn } from "./dsn";
import type { READ_ONLY_STATEMENTS } from "./read-only-sql";
import { markedError } from "../../../../marked-error";

/**
 * How long one statement may run before it is stopped, on either engine:
 * PostgreSQL cancels it itself (statement_timeout); a SQLite statement runs in
 * a child process that is killed (sqlite-process.ts).
 */
export const STATEMENT_TIMEOUT_MS = 30_000;

/** What a model or a person reads when a query was stopped at the timeout. */
export function queryTimeoutMessage(timeoutMs: number, stoppedHow: "cancelled" | "stopped"): string {
  return `The query ran longer than ${secondsText(timeoutMs)} and was ${stoppedHow}; narrow it (a WHERE, an aggregate, a recursion that ends) or add a LIMIT.`;
}

/** "30 seconds", "1.5 seconds", "1 second". */
export function secondsText(milliseconds: number): string {
  const seconds = Math.round(milliseconds / 100) / 10;
  return `${seconds} ${seconds === 1 ? "second" : "seconds"}`;
}

/** A table or view as listed. */
export interface TableEntry {
  /** PostgreSQL schema; absent for SQLite. */
  schema?: string;
  name: string;
  kind: "table" | "view" | "materialized view" | "foreign table" | "partitioned table";
  /** PostgreSQL's planner estimate, when the table has been analyzed. */
  rowEstimate?: number;
}

export interface ColumnDescription {
  name: string;
  type: string;
  nullable: boolean;
  default: string | null;
  primaryKey: boolean;
}

export interface TableDescription {
  table: TableEntry;
  columns: ColumnDescription[];
  /** "customer_id -> customers(id)" */
  foreignKeys: string[];
  /** Exact for SQLite; PostgreSQL gives an estimate in `table.rowEstimate` instead of counting. */
  rowCount?: number;
}

export interface QueryColumn {
  name: string;
  type: string;
}

export interface QueryOutcome {
  columns: QueryColumn[];
  rows: unknown[][];
  /** More rows existed than `limit`. */
  truncated: boolean;
  /**
   * Set when the rows up to `limit` came to more than MAX_QUERY_BYTES: `rows`
   * holds only the leading ones, and `counted` is how many the result had up to
   * the limit (read and counted, not kept).
   */
  cutForSize?: { counted: number };
}

/**
 * The most a query's rows may take as they are read (about their size as
 * JSON): a result of wide columns is cut here, where it is read, rather than
 * after the studio has held it whole (a 50-column × 1,000-row result of
 * 2,000-character values was 200 MB, and the server's memory passed 800 MB
 * before the stored result was cut to 1 MB). The rows past it are counted.
 */
export const MAX_QUERY_BYTES = 16_000_000;

/** A row's size, about as JSON writes it: texts by their length, bytes as base64, the rest a few characters. */
export function rowBytes(row: readonly unknown[]): number {
  let size = 2;
  for (const value of row) {
    if (typeof value === "string") size += value.length + 3;
    else if (value instanceof Uint8Array) size += Math.ceil((value.byteLength * 4) / 3) + 3;
    else if (value !== null && typeof value === "object") size += JSON.stringify(value)?.length ?? 4;
    else size += 12;
  }
  return size;
}

export interface ConnectionInfo {
  engine: "PostgreSQL" | "SQLite";
  version: string;
  /** Database name (PostgreSQL) or file name (SQLite). */
  database: string;
  user?: string;
  tableCount: number;
}

/**
 * One open, read-only connection. Every operation opens one, uses it and
 * closes it: nothing is pooled, so nothing leaks between calls or runs.
 */
export interface DatabaseSession {
  readonly engine: "PostgreSQL" | "SQLite";
  info(): Promise<ConnectionInfo>;
  listTables(limit: number): Promise<TableEntry[]>;
  /** `null` when there is no such table or view. */
  describeTable(table: string): Promise<TableDescription | null>;
  query(statement: string, keyword: (typeof READ_ONLY_STATEMENTS)[number], limit: number): Promise<QueryOutcome>;
  close(): Promise<void>;
}

/** A failure the model or a person can act on; its message never contains the connection URL. */
export class DatabaseToolError extends markedError("neurosurfer.database-tool", "DatabaseToolError") {
  constructor(
    message: string,
    readonly kind: ToolErrorKind = "failed",
  ) {
    super(message);
  }
}

/** Connection-level error codes (Node's and PostgreSQL's SQLSTATE) that a moment later may not recur. */
const NETWORK_CODES: ReadonlySet<string> = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EAI_AGAIN", "EHOSTUNREACH", "EPIPE"]);
const UNAVAILABLE_STATES: ReadonlySet<string> = new Set(["57P01", "57P02", "57P03", "53300", "08000", "08001", "08003", "08004", "08006"]);
const BUSY_STATES: ReadonlySet<string> = new Set(["SQLITE_BUSY", "SQLITE_LOCKED", "40001", "40P01", "55P03"]);

/**
 * What kind of failure a driver error is: a locked SQLite file or a
 * serialisation conflict is `busy`, a refused or reset connection `network`,
 * a server starting up or out of connections `unavailable` (all worth trying
 * again); anything else `failed`.
 */
export function driverErrorKind(error: unknown): ToolErrorKind {
  if (error instanceof AggregateError && error.errors.length > 0) {
    const kinds = error.errors.map(driverErrorKind);
    return kinds.every((kind) => kind === kinds[0]) ? kinds[0]! : "failed";
  }
  const code = error instanceof Error ? String((error as NodeJS.ErrnoException).code ?? "") : "";
  if (BUSY_STATES.has(code) || (error instanceof Error && /SQLITE_BUSY|database is locked/i.test(error.message))) return "busy";
  if (NETWORK_CODES.has(code)) return "network";
  if (UNAVAILABLE_STATES.has(code)) return "unavailable";
  return "failed";
}

/** The text of a driver error, including the parts some drivers leave out of `message`. */
export function driverMessage(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    // Connecting to "localhost" tries ::1 and 127.0.0.1; Node reports both with an empty message.
    return [...new Set(error.errors.map(driverMessage))].join("; ");
  }
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return error.message || code || error.name;
  }
  return String(error);
}

/**
 * The parts of a connection URL a driver's error may repeat and a model need
 * not learn: the role, the host (with and without the port), the database
 * name; for SQLite the file. Longest first, so no part is half-replaced.
 */
export function connectionParts(dsn: ParsedDsn): string[] {
  // A SQLite file by its whole path (where it lives); its name alone is what a person needs to fix it.
  if (dsn.kind === "sqlite") return [dsn.file];
  let url: URL;
  try {
    url = new URL(dsn.connectionString);
  } catch {
    return [];
  }
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  const parts = [url.host, url.hostname, decode(url.username), decode(url.pathname.replace(/^\//, ""))];
  // Short parts ("db", "pg") would mask ordinary words in the message; they say little anyway.
  return [...new Set(parts.filter((part) => part.length >= 3))].sort((left, right) => right.length - left.length);
}

/** A driver's error with the connection's role, host, database and file replaced by what they are. */
export function maskConnection(message: string, dsn: ParsedDsn): string {
  let masked = message;
  for (const part of connectionParts(dsn)) masked = masked.split(part).join("[connection detail hidden]");
  return masked;
}
