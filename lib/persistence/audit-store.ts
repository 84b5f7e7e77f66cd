import { decodeListCursor, LIST_PAGE_SIZE, nextCursorAfter } from "@/lib/contracts/list-page";
import { AUDIT_ORDER, AuditActionSchema, type AuditAction, type AuditEntry, type AuditPage, type AuditQuery } from "@/lib/validations/access";
import type { Prisma } from "./generated/sqlite/client";
import { getDatabase, type StudioDatabase } from "./database";
import { newId } from "./ids";

/**
 * The security log: who signed in (and who failed to), who confirmed a command
 * or chose a mode that lets actions run without asking, and when. Written by
 * the routes that do those things; shown on the Security page.
 */

export interface AuditEntryInput {
  actor: string;
  /** The person who did it, when one did. */
  actorId?: string | null;
  action: AuditAction;
  target?: string | null;
  detail?: Record<string, unknown>;
  clientAddress?: string;
}

export async function recordAudit(entry: AuditEntryInput, database: StudioDatabase = getDatabase()): Promise<void> {
  await database.auditEntry.create({
    data: {
      id: newId(),
      actor: entry.actor.slice(0, 200),
      actorId: entry.actorId ?? null,
      action: entry.action,
      target: entry.target ?? null,
      detail: JSON.stringify(entry.detail ?? {}),
      clientAddress: entry.clientAddress ?? "",
    },
  });
}

/** One page of the log, newest first, filtered as `query` says; `nextCursor` reads the page after it (null: none). */
export async function listAudit(query: Partial<AuditQuery> = {}, database: StudioDatabase = getDatabase()): Promise<AuditPage> {
  const olderThan = query.cursor === undefined ? undefined : decodeListCursor(query.cursor)?.id;
  const { entries, hasMore } = await readAuditPage(query, olderThan, query.limit ?? LIST_PAGE_SIZE, database);
  return { entries, nextCursor: nextCursorAfter(entries, hasMore, AUDIT_ORDER, (entry) => entry.id) };
}

/** Up to `limit` entries older than the entry `olderThan` (from the newest when undefined), and whether more follow. */
async function readAuditPage(query: AuditFilter, olderThan: string | undefined, limit: number, database: StudioDatabase): Promise<{ entries: AuditEntry[]; hasMore: boolean }> {
  const rows = await database.auditEntry.findMany({ where: { ...auditFilter(query), ...(olderThan ? { id: { lt: olderThan } } : {}) }, orderBy: { id: "desc" }, take: limit + 1 });
  return { entries: rows.slice(0, limit).map(toAuditEntry), hasMore: rows.length > limit };
}

/**
 * Every entry `query` matches, newest first, a batch at a time: an export of a
 * year of log never holds more than one batch (ids grow with time, so the
 * last id of a batch is where the next one starts).
 */
export async function* eachAuditEntry(query: AuditFilter, database: StudioDatabase = getDatabase(), batchSize = 500): AsyncGenerator<AuditEntry> {
  let olderThan: string | undefined;
  for (;;) {
    const { entries, hasMore } = await readAuditPage(query, olderThan, batchSize, database);
    yield* entries;
    if (!hasMore) return;
    olderThan = entries.at(-1)!.id;
  }
}

/** Which entries: the query without its page. */
type AuditFilter = Omit<Partial<AuditQuery>, "limit" | "cursor">;

function auditFilter(query: AuditFilter): Prisma.AuditEntryWhereInput {
  const at: Prisma.DateTimeFilter = {};
  if (query.from) at.gte = new Date(Date.parse(query.from));
  // A day alone means up to its end.
  if (query.to) at.lt = new Date(Date.parse(query.to) + (/^\d{4}-\d{2}-\d{2}$/.test(query.to) ? DAY_MS : 0));
  return {
    ...(query.action ? { action: query.action } : {}),
    ...(query.actorId ? { actorId: query.actorId } : {}),
    ...(query.from || query.to ? { at } : {}),
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

function toAuditEntry(row: { id: string; at: Date; actor: string; actorId: string | null; action: string; target: string | null; detail: string; clientAddress: string }): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: row.actor,
    actorId: row.actorId,
    action: AuditActionSchema.parse(row.action),
    target: row.target,
    detail: JSON.parse(row.detail) as Record<string, unknown>,
    clientAddress: row.clientAddress,
  };
}
