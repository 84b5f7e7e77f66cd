import { randomUUID } from "node:crypto";
import type { RunCommit, RunEvent } from "@/lib/workflow/run-types";
import { postgresDate } from "./postgres-statements";
import { sqliteDate } from "./prepared";
import { usageWrites } from "./run-usage-writes";

/*
 * The statements a run's commit makes on the prepared-statement paths, the
 * same on both databases but for how each stores a DateTime and how events go
 * in. SQL is written with `?` placeholders (PostgreSQL's path numbers them,
 * see postgresPlaceholders). They write what Prisma would.
 */

export interface Write {
  sql: string;
  values: unknown[];
  /** An UPDATE that must change a row (the run exists, the drive still holds it): else the commit fails with this message. */
  mustChange?: string;
}

export interface CommitDialect {
  /** A DateTime (ISO text) as this database's Prisma adapter stores it. */
  date: (value: string) => string;
  /** The statements that insert a commit's events. */
  insertEvents: (runId: string, events: RunEvent[]) => Write[];
}

const INSERT_EVENT = `INSERT INTO "RunEvent" ("runId", "seq", "type", "nodeId", "payload", "createdAt") VALUES (?, ?, ?, ?, ?, ?)`;

/** SQLite: one statement per event (a prepared statement in process costs microseconds). */
export const SQLITE_COMMITS: CommitDialect = {
  date: sqliteDate,
  insertEvents: (runId, events) =>
    events.map((event) => ({ sql: INSERT_EVENT, values: [runId, event.seq, event.type, event.nodeId, JSON.stringify(event.payload), sqliteDate(event.createdAt)] })),
};

/** PostgreSQL: every event of a commit in one statement, as arrays (each statement is a round trip to the server). */
const INSERT_EVENTS = `INSERT INTO "RunEvent" ("runId", "seq", "type", "nodeId", "payload", "createdAt")
  SELECT ?, "seq", "type", "nodeId", "payload", "createdAt" FROM unnest(?::integer[], ?::text[], ?::text[], ?::text[], ?::timestamp(3)[])
  AS "event" ("seq", "type", "nodeId", "payload", "createdAt")`;

export const POSTGRES_COMMITS: CommitDialect = {
  date: postgresDate,
  insertEvents: (runId, events) =>
    events.length === 0
      ? []
      : [
          {
            sql: INSERT_EVENTS,
            values: [
              runId,
              events.map((event) => event.seq),
              events.map((event) => event.type),
              events.map((event) => event.nodeId),
              events.map((event) => JSON.stringify(event.payload)),
              events.map((event) => postgresDate(event.createdAt)),
            ],
          },
        ],
};

/** The statements a commit makes, serialised up front so the transaction holds its locks only to write. */
export function commitWrites(runId: string, commit: RunCommit, dialect: CommitDialect): Write[] {
  const writes: Write[] = [];
  const date = dialect.date;
  if (commit.driver) {
    // Also locks the run's row until COMMIT on PostgreSQL, so a claim by another drive waits for this commit to land.
    writes.push({
      sql: `UPDATE "Run" SET "driver" = "driver" WHERE "id" = ? AND "driver" = ?`,
      values: [runId, commit.driver],
      mustChange: `Run ${runId} is driven elsewhere now; this drive's changes are not recorded.`,
    });
  }
  const runColumns: [string, unknown][] = [];
  if (commit.run?.status !== undefined) runColumns.push(["status", commit.run.status]);
  if (commit.run?.output !== undefined) runColumns.push(["output", JSON.stringify(commit.run.output)]);
  if (commit.run?.error !== undefined) runColumns.push(["error", commit.run.error]);
  if (commit.run?.errorKind !== undefined) runColumns.push(["errorKind", commit.run.errorKind]);
  if (commit.run?.finishedAt !== undefined) runColumns.push(["finishedAt", commit.run.finishedAt ? date(commit.run.finishedAt) : null]);
  const lastSeq = commit.events.reduce((highest, event) => Math.max(highest, event.seq), 0);
  if (lastSeq > 0) runColumns.push(["lastSeq", lastSeq]);
  if (runColumns.length > 0) {
    writes.push({
      sql: `UPDATE "Run" SET ${runColumns.map(([name]) => `"${name}" = ?`).join(", ")} WHERE "id" = ?`,
      values: [...runColumns.map(([, value]) => value), runId],
      mustChange: `Run ${runId} is not in the database, so its changes cannot be recorded.`,
    });
  }
  for (const step of commit.steps) {
    const columns: [string, unknown][] = [["status", step.status]];
    if (step.input !== undefined) columns.push(["input", JSON.stringify(step.input)]);
    if (step.output !== undefined) columns.push(["output", step.output === null ? null : JSON.stringify(step.output)]);
    if (step.error !== undefined) columns.push(["error", step.error]);
    if (step.errorKind !== undefined) columns.push(["errorKind", step.errorKind]);
    if (step.attempt !== undefined) columns.push(["attempt", step.attempt]);
    if (step.retryAt !== undefined) columns.push(["retryAt", step.retryAt ? date(step.retryAt) : null]);
    if (step.startedAt !== undefined) columns.push(["startedAt", date(step.startedAt)]);
    if (step.finishedAt !== undefined) columns.push(["finishedAt", step.finishedAt ? date(step.finishedAt) : null]);
    const names = columns.map(([name]) => `"${name}"`);
    writes.push({
      sql:
        `INSERT INTO "Step" ("id", "runId", "nodeId", ${names.join(", ")}) VALUES (?, ?, ?, ${names.map(() => "?").join(", ")}) ` +
        `ON CONFLICT ("runId", "nodeId") DO UPDATE SET ${names.map((name) => `${name} = excluded.${name}`).join(", ")}`,
      values: [randomUUID(), runId, step.nodeId, ...columns.map(([, value]) => value)],
    });
  }
  writes.push(...dialect.insertEvents(runId, commit.events));
  writes.push(...usageWrites(runId, commit.events));
  return writes;
}
