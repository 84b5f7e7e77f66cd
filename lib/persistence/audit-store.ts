import { AuditActionSchema, type AuditAction, type AuditEntry, type AuditPage, type AuditQuery } from "@/lib/validations/access";
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
  const limit = query.limit ?? 100;
  const rows = await database.auditEntry.findMany({ where: auditFilter(query), orderBy: { id: "desc" }, take: limit + 1 });
  const page = rows.slice(0, limit);
  return { entries: page.map(toAuditEntry), nextCursor: rows.length > limit ? page[page.length - 1]!.id : null };
}

/**
 * Every entry `query` matches, newest first, a batch at a time: an export of a
 * year of log never holds more than one batch (ids grow with time, so the
 * last id of a batch is where the next one starts).
 */
export async function* eachAuditEntry(query: Omit<Partial<AuditQuery>, "limit">, database: StudioDatabase = getDatabase(), batchSize = 500): AsyncGenerator<AuditEntry> {
  let before = query.before;
  for (;;) {
    const page = await listAudit({ ...query, before, limit: batchSize }, database);
    yield* page.entries;
    if (page.nextCursor === null) return;
    before = page.nextCursor;
  }
}

function auditFilter(query: Partial<AuditQuery>): Prisma.AuditEntryWhereInput {
  const at: Prisma.DateTimeFilter = {};
  if (query.from) at.gte = new Date(Date.parse(query.from));
  // A day alone means up to its end.
  if (query.to) at.lt = new Date(Date.parse(query.to) + (/^\d{4}-\d{2}-\d{2}$/.test(query.to) ? DAY_MS : 0));
  return {
    ...(query.before ? { id: { lt: query.before } } : {}),
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
