import type { StudioDatabase } from "@/lib/persistence";
import { eachAuditEntry } from "@/lib/persistence/audit-store";
import type { AuditEntry, AuditQuery } from "@/lib/validations/access";

/**
 * The security log as a file: CSV (RFC 4180, for a spreadsheet) or JSON Lines
 * (one entry per line, for a log pipeline). Written as the reader takes it: the
 * stream pulls the next batch of entries only when the last one was read, so
 * exporting a year of log to a slow client holds one batch, not the year.
 */

export type AuditExportFormat = "csv" | "jsonl";

const CSV_COLUMNS = ["at", "actor", "actorId", "action", "target", "clientAddress", "detail"] as const;

export const AUDIT_EXPORT_TYPES: Record<AuditExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  jsonl: "application/x-ndjson; charset=utf-8",
};

export function auditExportStream(query: Omit<Partial<AuditQuery>, "limit" | "cursor">, format: AuditExportFormat, database: StudioDatabase): ReadableStream<Uint8Array> {
  const entries = eachAuditEntry(query, database);
  const encoder = new TextEncoder();
  let headerSent = format !== "csv";
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(`${CSV_COLUMNS.join(",")}\r\n`));
          return;
        }
        const next = await entries.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(format === "csv" ? csvLine(next.value) : `${JSON.stringify(next.value)}\n`));
      },
      async cancel() {
        await entries.return(undefined);
      },
    },
    // A few entries ahead of the reader at most.
    { highWaterMark: 16 },
  );
}

export function csvLine(entry: AuditEntry): string {
  const values: Record<(typeof CSV_COLUMNS)[number], string> = {
    at: entry.at,
    actor: entry.actor,
    actorId: entry.actorId ?? "",
    action: entry.action,
    target: entry.target ?? "",
    clientAddress: entry.clientAddress,
    detail: JSON.stringify(entry.detail),
  };
  return `${CSV_COLUMNS.map((column) => csvCell(values[column])).join(",")}\r\n`;
}

/**
 * One quoted cell. A value a spreadsheet would take for a formula (it starts
 * with = + - @, a tab or a carriage return) is written after a ' so it is
 * shown as text: the log holds names and addresses others chose, and a name
 * like `=HYPERLINK(…)` must not run in the auditor's spreadsheet.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** The file's name: the log, the day it was taken, the format. */
export function auditExportFileName(format: AuditExportFormat, now = new Date()): string {
  return `security-log-${now.toISOString().slice(0, 10)}.${format}`;
}
