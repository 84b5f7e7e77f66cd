import { createHash, randomBytes } from "node:crypto";
import { RoleSchema, type Role } from "@/lib/contracts/roles";
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
  /** Whose it is; null for a session made before people existed (the first owner's). */
  personId: string | null;
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

/** A live session with its person's role now (null for a pre-people session: the first owner's). */
export interface LiveSession extends SessionRecord {
  role: Role | null;
}

/** The id a cookie's secret is stored under. */
export function sessionIdOf(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export async function createSession(
  fields: { person: string; personId: string; method: SignInMethod; clientAddress: string },
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

/**
 * The live session a cookie's secret belongs to, with its person's role read
 * in the same query (a role change counts from the next request), or null:
 * unknown, ended, expired, or its person deactivated.
 */
export async function findSession(secret: string, database: StudioDatabase = getDatabase(), now = new Date()): Promise<LiveSession | null> {
  const id = sessionIdOf(secret);
  const connection = await sqliteConnection(database);
  let session: LiveSession | null = null;
  if (connection) {
    const row = statement(
      connection.database,
      `SELECT s.*, p."role" AS "personRole", p."active" AS "personActive" FROM "StudioSession" s LEFT JOIN "Person" p ON p."id" = s."personId" WHERE s."id" = ?`,
    ).get(id) as Record<string, unknown> | undefined;
    if (row && (row.personId === null || row.personActive === 1)) session = { ...toRecord(row), role: row.personRole === null ? null : RoleSchema.parse(row.personRole) };
  } else {
    const row = await database.studioSession.findUnique({ where: { id }, include: { account: { select: { role: true, active: true } } } });
    if (row && (row.account === null || row.account.active)) session = { ...toRecord(row), role: row.account ? RoleSchema.parse(row.account.role) : null };
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

/**
 * Ends every session of one person but `keepId` (sign out everywhere else);
 * returns how many ended. `includeUnowned`: the first owner's call also ends
 * the sessions made before people existed, which are theirs.
 */
export async function endOtherSessions(
  keepId: string | null,
  person: { id: string; includeUnowned: boolean },
  database: StudioDatabase = getDatabase(),
): Promise<number> {
  const whose = person.includeUnowned ? { OR: [{ personId: person.id }, { personId: null }] } : { personId: person.id };
  return (await database.studioSession.deleteMany({ where: { ...whose, ...(keepId ? { id: { not: keepId } } : {}) } })).count;
}

/** Ends every session of a person at once (they were deactivated, or their password was reset). */
export async function endSessionsOf(personId: string, database: StudioDatabase = getDatabase()): Promise<number> {
  return (await database.studioSession.deleteMany({ where: { personId } })).count;
}

/** The live sessions of one person (`includeUnowned`: and those made before people existed, for the first owner). */
export async function listSessions(
  person: { id: string; includeUnowned: boolean },
  database: StudioDatabase = getDatabase(),
  now = new Date(),
): Promise<SessionRecord[]> {
  const whose = person.includeUnowned ? { OR: [{ personId: person.id }, { personId: null }] } : { personId: person.id };
  const rows = await database.studioSession.findMany({ where: { expiresAt: { gt: now }, ...whose }, orderBy: { lastSeenAt: "desc" } });
  return rows.map(toRecord);
}

/** Sessions as listed to people: the start of the digest as the id, and which one is the caller's. */
export function sessionViews(sessions: SessionRecord[], currentId: string | null): SessionView[] {
  return sessions.map(({ id, personId: _personId, ...session }) => ({ ...session, id: id.slice(0, 12), current: id === currentId }));
}

export async function deleteExpiredSessions(database: StudioDatabase = getDatabase(), now = new Date()): Promise<number> {
  return (await database.studioSession.deleteMany({ where: { expiresAt: { lte: now } } })).count;
}

function toRecord(row: Record<string, unknown>): SessionRecord {
  const date = (value: unknown) => (value instanceof Date ? value.toISOString() : (readDate(value) ?? new Date(0).toISOString()));
  return {
    id: String(row.id),
    person: String(row.person),
    personId: row.personId === null || row.personId === undefined ? null : String(row.personId),
    method: SignInMethodSchema.parse(row.method),
    clientAddress: String(row.clientAddress ?? ""),
    createdAt: date(row.createdAt),
    authenticatedAt: date(row.authenticatedAt),
    lastSeenAt: date(row.lastSeenAt),
    expiresAt: date(row.expiresAt),
  };
}
