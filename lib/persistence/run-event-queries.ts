/**
 * A run's events and where it stands, as its event stream reads them: on
 * prepared statements where the client has a path for them.
 */
import type { RunEvent, RunRecord, RunStatus } from "@/lib/workflow/run-types";
import { getDatabase, type StudioDatabase } from "./database";
import { preparedRows } from "./hot-path";
import { readDate } from "./prepared";
import { toRunEvent, toRunRecord } from "./run-records";

const READ_EVENTS = `SELECT "runId", "seq", "type", "nodeId", "payload", "createdAt" FROM "RunEvent" WHERE "runId" = ? AND "seq" > ? ORDER BY "seq" LIMIT ?`;
const RUN_STATUS = `SELECT "status" FROM "Run" WHERE "id" = ?`;
/**
 * What an event stream reads: READ_EVENTS with the payload as SQLite's bytes
 * (its text cast to a BLOB: a Buffer, no string made of it) and PostgreSQL's
 * text (its bytes would come as hex, twice the size), optionally cut at a
 * number of payload bytes: the events whose payloads before them come to less
 * than the bound, so the first is always there. The running sum is the
 * database's, over the payloads' sizes only (octet_length reads a value's
 * size, not the value), and only the chosen events' payloads are read:
 * neither the studio nor the database holds the payloads past the bound.
 */
const eventTexts = (payload: string, bounded: boolean) =>
  bounded
    ? `SELECT "runId", "seq", "type", "nodeId", ${payload} AS "payload", "createdAt" FROM "RunEvent" WHERE "runId" = ? AND "seq" IN (
  SELECT "seq" FROM (
    SELECT "seq", sum(octet_length("payload")) OVER (ORDER BY "seq") - octet_length("payload") AS "before"
    FROM "RunEvent" WHERE "runId" = ? AND "seq" > ? ORDER BY "seq" LIMIT ?
  ) AS "page" WHERE "before" < ?
) ORDER BY "seq"`
    : `SELECT "runId", "seq", "type", "nodeId", ${payload} AS "payload", "createdAt" FROM "RunEvent" WHERE "runId" = ? AND "seq" > ? ORDER BY "seq" LIMIT ?`;
const READ_EVENT_TEXTS = { sqlite: eventTexts(`CAST("payload" AS BLOB)`, false), postgresql: eventTexts(`"payload"`, false) };
const READ_EVENT_TEXTS_BOUNDED = { sqlite: eventTexts(`CAST("payload" AS BLOB)`, true), postgresql: eventTexts(`"payload"`, true) };

/** Events after `afterSeq`, in order; at most `limit`. Read by every event stream, so a prepared statement where the client has a path for one. */
export async function readEvents(
  runId: string,
  afterSeq: number,
  limit = 500,
  database: StudioDatabase = getDatabase(),
): Promise<RunEvent[]> {
  const prepared = await preparedRows<{ runId: string; seq: number; type: string; nodeId: string | null; payload: string; createdAt: unknown }>(
    database,
    READ_EVENTS,
    [runId, afterSeq, limit],
  );
  if (prepared) return prepared.map((row) => toRunEvent({ ...row, createdAt: new Date(readDate(row.createdAt)!) }));
  const rows = await database.runEvent.findMany({
    where: { runId, seq: { gt: afterSeq } },
    orderBy: { seq: "asc" },
    take: limit,
  });
  return rows.map(toRunEvent);
}

/**
 * A stored event as the JSON text of its RunEvent (what an event stream sends), with its sequence number and type: the
 * text around the payload, and the payload as the database gave it (SQLite: its bytes; PostgreSQL: its text). A
 * megabyte result goes from the database to the socket without being decoded, parsed or copied into a longer string:
 * each copy is garbage the size of the result, and forty clients replaying a run of such results made hundreds of
 * megabytes of it faster than the collector took it back.
 */
export interface EventText {
  seq: number;
  type: string;
  /** The JSON before the payload's value. */
  head: string;
  payload: string | Uint8Array;
  /** The JSON after it. */
  tail: string;
}

const utf8 = new TextDecoder();

/** A payload as text, the database's bytes decoded. */
const payloadText = (payload: string | Uint8Array): string => (typeof payload === "string" ? payload : utf8.decode(payload));

/** The event's JSON text whole, for the few that need it as one string (a redaction, a test). */
export function eventTextJson(event: EventText): string {
  return event.head + payloadText(event.payload) + event.tail;
}

/** An event's text from its JSON (a live event's, a redacted one's): all of it as the head. */
export function eventTextOf(seq: number, type: string, json: string): EventText {
  return { seq, type, head: json, payload: "", tail: "" };
}

/**
 * Events after `afterSeq` as JSON text, in order; at most `limit`, and with
 * `maxBytes` no more past that many payload bytes than the first. The same
 * events as `readEvents`, but put together from their columns around the
 * payload's stored text: an event stream replays a run's events without
 * parsing each payload only to serialise it again.
 */
export async function readEventTexts(runId: string, afterSeq: number, limit = 500, database: StudioDatabase = getDatabase(), maxBytes?: number): Promise<EventText[]> {
  const prepared = await preparedRows<{ runId: string; seq: number; type: string; nodeId: string | null; payload: string | Uint8Array; createdAt: unknown }>(
    database,
    maxBytes === undefined ? READ_EVENT_TEXTS : READ_EVENT_TEXTS_BOUNDED,
    maxBytes === undefined ? [runId, afterSeq, limit] : [runId, runId, afterSeq, limit, maxBytes],
  );
  if (!prepared) return (await readEvents(runId, afterSeq, limit, database)).map((event) => eventTextOf(event.seq, event.type, JSON.stringify(event)));
  return prepared.map((row) => {
    // The payload is the JSON.stringify text the commit stored (one line, an object); anything else is read as readEvents reads it.
    const isObject = typeof row.payload === "string" ? row.payload.startsWith("{") : row.payload[0] === 0x7b;
    const payload = isObject ? row.payload : JSON.stringify(toRunEvent({ ...row, payload: payloadText(row.payload), createdAt: new Date(0) }).payload);
    const createdAt = storedDateIso(row.createdAt);
    const nodeId = row.nodeId === null ? "null" : JSON.stringify(row.nodeId);
    return {
      seq: row.seq,
      type: row.type,
      head: `{"runId":${JSON.stringify(row.runId)},"seq":${row.seq},"type":${JSON.stringify(row.type)},"nodeId":${nodeId},"payload":`,
      payload,
      tail: `,"createdAt":"${createdAt}"}`,
    };
  });
}

/** A stored DateTime as ISO text: SQLite's `…+00:00` form by slicing (the hot case), anything else through `readDate`. */
function storedDateIso(value: unknown): string {
  if (typeof value === "string" && value.length === 29 && value.endsWith("+00:00") && value[10] === "T") return `${value.slice(0, 23)}Z`;
  return readDate(value)!;
}

/** Where a run stands, or null when there is no such run: what an event stream asks when it opens and when it may end. */
const RUN_OUTCOME = `SELECT "status", "output", "error" FROM "Run" WHERE "id" = ?`;

/** A run's status and, once finished, its output or error; null for an unknown run. */
export async function runOutcome(runId: string, database: StudioDatabase = getDatabase()): Promise<{ status: RunStatus; output: unknown; error: string | null } | null> {
  const prepared = await preparedRows<{ status: string; output: string | null; error: string | null }>(database, RUN_OUTCOME, [runId]);
  const row = prepared ? prepared[0] : await database.run.findUnique({ where: { id: runId }, select: { status: true, output: true, error: true } });
  if (!row) return null;
  return { status: row.status as RunStatus, output: row.output === null ? null : (JSON.parse(row.output) as unknown), error: row.error };
}

export async function runStatus(runId: string, database: StudioDatabase = getDatabase()): Promise<RunStatus | null> {
  const prepared = await preparedRows<{ status: string }>(database, RUN_STATUS, [runId]);
  const row = prepared ? prepared[0] : await database.run.findUnique({ where: { id: runId }, select: { status: true } });
  return row ? (row.status as RunStatus) : null;
}

export async function runExists(runId: string, database: StudioDatabase = getDatabase()): Promise<RunRecord | null> {
  const row = await database.run.findUnique({ where: { id: runId }, include: { version: { select: { version: true } } } });
  return row ? toRunRecord(row) : null;
}
