import { createHash, randomBytes } from "node:crypto";
import { SignInMethodSchema, type SessionView, type SignInMethod } from "@/lib/validations/access";
import { getDatabase, sqliteConnection, type StudioDatabase } from "./database";
import { readDate, statement } from "./prepared";

/**
 * Signed-in browsers. The cookie carries a random secret; the table keeps only
 * its SHA-256, so a copy of the database signs nobody in. Ending a session
 * deletes its row: a stolen cookie stops working the moment its person signs
 * out. The lookup runs on every request, so it is a prepared statement on
 * SQLite rather than a Prisma query.
 */

export type { SignInMethod };

export interface SessionRecord {
  id: string;
  person: string;
  method: SignInMethod;
  clientAddress: string;
  createdAt: string;
  authenticatedAt: string;
  lastSeenAt: string;
  expiresAt: string;
}

export const SESSION_DAYS = 14;
/** `lastSeenAt` is written at most this often, so a busy page does not write on every request. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

/** The id a cookie's secret is stored under. */
export function sessionIdOf(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export async function createSession(
  fields: { person: string; method: SignInMethod; clientAddress: string },
  database: StudioDatabase = getDatabase(),
  now = new Date(),
): Promise<{ secret: string; session: SessionRecord }> {
  const secret = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + SESSION_DAYS * 24 * 3600 * 1000);
  const row = await database.studioSession.create({
    data: { id: sessionIdOf(secret), ...fields, createdAt: now, authenticatedAt: now, lastSeenAt: now, expiresAt },
  });
  return { secret, session: toRecord(row) };
}

/** The live session a cookie's secret belongs to, or null (unknown, ended or expired). */
export async function findSession(secret: string, database: StudioDatabase = getDatabase(), now = new Date()): Promise<SessionRecord | null> {
  const id = sessionIdOf(secret);
  const connection = await sqliteConnection(database);
  let session: SessionRecord | null;
  if (connection) {
    const row = statement(connection.database, `SELECT * FROM "StudioSession" WHERE "id" = ?`).get(id) as Record<string, unknown> | undefined;
    session = row ? toRecord(row) : null;
  } else {
    const row = await database.studioSession.findUnique({ where: { id } });
    session = row ? toRecord(row) : null;
  }
  if (!session || Date.parse(session.expiresAt) <= now.getTime()) return null;
  if (now.getTime() - Date.parse(session.lastSeenAt) > LAST_SEEN_RESOLUTION_MS) {
    await database.studioSession.updateMany({ where: { id }, data: { lastSeenAt: now } });
  }
  return session;
}

/** Records that the person proved who they are again (the password or token), for privileged changes. */
export async function confirmSession(id: string, database: StudioDatabase = getDatabase(), now = new Date()): Promise<void> {
  await database.studioSession.updateMany({ where: { id }, data: { authenticatedAt: now } });
}

export async function endSession(id: string, database: StudioDatabase = getDatabase()): Promise<boolean> {
  return (await database.studioSession.deleteMany({ where: { id } })).count > 0;
}

/** Ends every session but `keepId` (sign out everywhere else); returns how many ended. */
export async function endOtherSessions(keepId: string | null, database: StudioDatabase = getDatabase()): Promise<number> {
  return (await database.studioSession.deleteMany({ where: keepId ? { id: { not: keepId } } : {} })).count;
}

export async function listSessions(database: StudioDatabase = getDatabase(), now = new Date()): Promise<SessionRecord[]> {
  const rows = await database.studioSession.findMany({ where: { expiresAt: { gt: now } }, orderBy: { lastSeenAt: "desc" } });
  return rows.map(toRecord);
}

/** Sessions as listed to people: the start of the digest as the id, and which one is the caller's. */
export function sessionViews(sessions: SessionRecord[], currentId: string | null): SessionView[] {
  return sessions.map(({ id, ...session }) => ({ ...session, id: id.slice(0, 12), current: id === currentId }));
}

export async function deleteExpiredSessions(database: StudioDatabase = getDatabase(), now = new Date()): Promise<number> {
  return (await database.studioSession.deleteMany({ where: { expiresAt: { lte: now } } })).count;
}

function toRecord(row: Record<string, unknown>): SessionRecord {
  const date = (value: unknown) => (value instanceof Date ? value.toISOString() : (readDate(value) ?? new Date(0).toISOString()));
  return {
    id: String(row.id),
    person: String(row.person),
    method: SignInMethodSchema.parse(row.method),
    clientAddress: String(row.clientAddress ?? ""),
    createdAt: date(row.createdAt),
    authenticatedAt: date(row.authenticatedAt),
    lastSeenAt: date(row.lastSeenAt),
    expiresAt: date(row.expiresAt),
  };
}
