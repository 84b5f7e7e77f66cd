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

/** A notification sent with a commit's events, in the same transaction (PostgreSQL's pg_notify). */
export interface Announcement {
  channel: string;
  payload: string;
}

/** A step's columns a commit sets (its status always), in the order they are written, as the database stores them. */
type StepColumns = [name: StepColumn, value: unknown][];
type StepColumn = "status" | "input" | "output" | "error" | "errorKind" | "attempt" | "retryAt" | "startedAt" | "finishedAt";

/**
 * The Step table's columns as PostgreSQL types, for statements that take steps as arrays (`unnest`) or JSON
 * (`json_to_recordset`): one list for run creation and commits.
 */
export const POSTGRES_STEP_COLUMN_TYPES: Record<StepColumn | "id" | "runId" | "nodeId" | "carriedFromRunId" | "carriedAs", string> = {
  id: "text",
  runId: "text",
  nodeId: "text",
  status: "text",
  input: "text",
  output: "text",
  error: "text",
  errorKind: "text",
  attempt: "integer",
  retryAt: "timestamp(3)",
  startedAt: "timestamp(3)",
  finishedAt: "timestamp(3)",
  carriedFromRunId: "text",
  carriedAs: "text",
};

export interface CommitDialect {
  /** A DateTime (ISO text) as this database's Prisma adapter stores it. */
  date: (value: string) => string;
  /** The statements that insert a commit's events, and send `announcement` with them. */
  insertEvents: (runId: string, events: RunEvent[], announcement?: Announcement) => Write[];
  /** The statements that create or update the commit's steps. */
  upsertSteps: (runId: string, steps: { nodeId: string; columns: StepColumns }[]) => Write[];
}

const INSERT_EVENT = `INSERT INTO "RunEvent" ("runId", "seq", "type", "nodeId", "payload", "createdAt") VALUES (?, ?, ?, ?, ?, ?)`;

/** SQLite: one statement per event and per step (a prepared statement in process costs microseconds). */
export const SQLITE_COMMITS: CommitDialect = {
  date: sqliteDate,
  insertEvents: (runId, events) =>
    events.map((event) => ({ sql: INSERT_EVENT, values: [runId, event.seq, event.type, event.nodeId, JSON.stringify(event.payload), sqliteDate(event.createdAt)] })),
  upsertSteps: (runId, steps) =>
    steps.map(({ nodeId, columns }) => {
      const names = columns.map(([name]) => `"${name}"`);
      return {
        sql:
          `INSERT INTO "Step" ("id", "runId", "nodeId", ${names.join(", ")}) VALUES (?, ?, ?, ${names.map(() => "?").join(", ")}) ` +
          `ON CONFLICT ("runId", "nodeId") DO UPDATE SET ${names.map((name) => `${name} = excluded.${name}`).join(", ")}`,
        values: [randomUUID(), runId, nodeId, ...columns.map(([, value]) => value)],
      };
    }),
};

/** PostgreSQL: every event of a commit in one statement, as arrays (each statement is a round trip to the server). */
const INSERT_EVENTS = `INSERT INTO "RunEvent" ("runId", "seq", "type", "nodeId", "payload", "createdAt")
  SELECT ?, "seq", "type", "nodeId", "payload", "createdAt" FROM unnest(?::integer[], ?::text[], ?::text[], ?::text[], ?::timestamp(3)[])
  AS "event" ("seq", "type", "nodeId", "payload", "createdAt")`;

/** The notification that says a commit's events are stored: a part of the commit's one statement (combineWrites). */
const NOTIFY = `SELECT pg_notify(?, ?)`;

export const POSTGRES_COMMITS: CommitDialect = {
  date: postgresDate,
  insertEvents: (runId, events, announcement) => {
    if (events.length === 0) return [];
    const values = [
      runId,
      events.map((event) => event.seq),
      events.map((event) => event.type),
      events.map((event) => event.nodeId),
      events.map((event) => JSON.stringify(event.payload)),
      events.map((event) => postgresDate(event.createdAt)),
    ];
    const insert = { sql: INSERT_EVENTS, values };
    return announcement ? [insert, { sql: NOTIFY, values: [announcement.channel, announcement.payload] }] : [insert];
  },
  // Each statement is a round trip to the server: the steps that set the same columns go in one, from arrays.
  upsertSteps: (runId, steps) =>
    [...groupByColumns(mergeByNode(steps))].map(([, group]) => {
      const names = group[0]!.columns.map(([name]) => name);
      const quoted = names.map((name) => `"${name}"`);
      return {
        sql:
          `INSERT INTO "Step" ("id", "runId", "nodeId", ${quoted.join(", ")}) SELECT "id", ?, "nodeId", ${quoted.join(", ")} ` +
          `FROM unnest(?::text[], ?::text[], ${names.map((name) => `?::${POSTGRES_STEP_COLUMN_TYPES[name]}[]`).join(", ")}) AS "step" ("id", "nodeId", ${quoted.join(", ")}) ` +
          `ON CONFLICT ("runId", "nodeId") DO UPDATE SET ${quoted.map((name) => `${name} = excluded.${name}`).join(", ")}`,
        values: [
          runId,
          group.map(() => randomUUID()),
          group.map((step) => step.nodeId),
          ...names.map((_, index) => group.map((step) => step.columns[index]![1])),
        ],
      };
    }),
};

/**
 * One entry per step: a step written twice in a commit (started and finished) as one write of every column either
 * set, the later value winning, as the two upserts in order would leave it. One statement may not touch a row twice.
 */
function mergeByNode(steps: { nodeId: string; columns: StepColumns }[]): { nodeId: string; columns: StepColumns }[] {
  const merged = new Map<string, Map<StepColumn, unknown>>();
  for (const { nodeId, columns } of steps) {
    const row = merged.get(nodeId) ?? new Map<StepColumn, unknown>();
    for (const [name, value] of columns) row.set(name, value);
    merged.set(nodeId, row);
  }
  return [...merged].map(([nodeId, row]) => ({ nodeId, columns: [...row] }));
}

/** The steps grouped by the columns they set (in the same order), each group one statement. */
function groupByColumns(steps: { nodeId: string; columns: StepColumns }[]): Map<string, { nodeId: string; columns: StepColumns }[]> {
  const groups = new Map<string, { nodeId: string; columns: StepColumns }[]>();
  for (const step of steps) {
    const key = step.columns.map(([name]) => name).join(",");
    const group = groups.get(key);
    if (group) group.push(step);
    else groups.set(key, [step]);
  }
  return groups;
}

/**
 * The statements a commit makes, serialised up front so the transaction holds its locks only to write.
 * `announcement`: sent with the commit's events (PostgreSQL shared by several processes).
 */
export function commitWrites(runId: string, commit: RunCommit, dialect: CommitDialect, announcement?: Announcement): Write[] {
  const writes: Write[] = [];
  const date = dialect.date;
  const runColumns: [string, unknown][] = [];
  if (commit.run?.status !== undefined) runColumns.push(["status", commit.run.status]);
  if (commit.run?.output !== undefined) runColumns.push(["output", JSON.stringify(commit.run.output)]);
  if (commit.run?.error !== undefined) runColumns.push(["error", commit.run.error]);
  if (commit.run?.errorKind !== undefined) runColumns.push(["errorKind", commit.run.errorKind]);
  if (commit.run?.finishedAt !== undefined) runColumns.push(["finishedAt", commit.run.finishedAt ? date(commit.run.finishedAt) : null]);
  const lastSeq = commit.events.reduce((highest, event) => Math.max(highest, event.seq), 0);
  if (lastSeq > 0) runColumns.push(["lastSeq", lastSeq]);
  if (commit.driver) {
    // Fencing, first: also locks the run's row until COMMIT on PostgreSQL, so a claim by another drive waits for this
    // commit to land. With the run's own changes when there are some (one statement less), else alone.
    const assignments = runColumns.length > 0 ? runColumns.map(([name]) => `"${name}" = ?`) : [`"driver" = "driver"`];
    writes.push({
      sql: `UPDATE "Run" SET ${assignments.join(", ")} WHERE "id" = ? AND "driver" = ?`,
      values: [...runColumns.map(([, value]) => value), runId, commit.driver],
      mustChange: `Run ${runId} is driven elsewhere now; this drive's changes are not recorded.`,
    });
  } else if (runColumns.length > 0) {
    writes.push({
      sql: `UPDATE "Run" SET ${runColumns.map(([name]) => `"${name}" = ?`).join(", ")} WHERE "id" = ?`,
      values: [...runColumns.map(([, value]) => value), runId],
      mustChange: `Run ${runId} is not in the database, so its changes cannot be recorded.`,
    });
  }
  const steps = commit.steps.map((step) => {
    const columns: StepColumns = [["status", step.status]];
    if (step.input !== undefined) columns.push(["input", JSON.stringify(step.input)]);
    if (step.output !== undefined) columns.push(["output", step.output === null ? null : JSON.stringify(step.output)]);
    if (step.error !== undefined) columns.push(["error", step.error]);
    if (step.errorKind !== undefined) columns.push(["errorKind", step.errorKind]);
    if (step.attempt !== undefined) columns.push(["attempt", step.attempt]);
    if (step.retryAt !== undefined) columns.push(["retryAt", step.retryAt ? date(step.retryAt) : null]);
    if (step.startedAt !== undefined) columns.push(["startedAt", date(step.startedAt)]);
    if (step.finishedAt !== undefined) columns.push(["finishedAt", step.finishedAt ? date(step.finishedAt) : null]);
    return { nodeId: step.nodeId, columns };
  });
  writes.push(...dialect.upsertSteps(runId, steps));
  writes.push(...dialect.insertEvents(runId, commit.events, announcement));
  writes.push(...usageWrites(runId, commit.events));
  return writes;
}
