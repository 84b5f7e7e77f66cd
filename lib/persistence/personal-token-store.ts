import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { RoleSchema, ScopeSchema, type Role, type Scope } from "@/lib/contracts/roles";
import { getDatabase, type StudioDatabase } from "./database";
import { newId } from "./ids";

/**
 * Personal access tokens: a person's credential for scripts, the CLI and MCP
 * clients. Named, carrying chosen scopes, expiring; only the SHA-256 is kept,
 * the token is shown once. A token never does more than its person's role
 * allows now (a role lowered after it was made lowers it too).
 */

/** Every personal token starts so, which tells it from the studio's access token and lets secret scanners find one. */
export const PERSONAL_TOKEN_PREFIX = "nsp_";

export interface PersonalTokenRecord {
  id: string;
  personId: string;
  name: string;
  scopes: Scope[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** A token in use: its record and its person's name and role now. */
export interface LiveToken extends PersonalTokenRecord {
  personName: string;
  role: Role;
}

const LAST_USED_RESOLUTION_MS = 60_000;
const ScopesSchema = z.array(ScopeSchema);

function digest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function isPersonalToken(token: string): boolean {
  return token.startsWith(PERSONAL_TOKEN_PREFIX);
}

type TokenRow = { id: string; personId: string; name: string; scopes: string; createdAt: Date; expiresAt: Date | null; lastUsedAt: Date | null; revokedAt: Date | null };

function toRecord(row: TokenRow): PersonalTokenRecord {
  return {
    id: row.id,
    personId: row.personId,
    name: row.name,
    scopes: ScopesSchema.parse(JSON.parse(row.scopes)),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

export async function createPersonalToken(
  fields: { personId: string; name: string; scopes: Scope[]; expiresAt: Date | null },
  database: StudioDatabase = getDatabase(),
): Promise<{ token: string; record: PersonalTokenRecord }> {
  const token = `${PERSONAL_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const row = await database.personalAccessToken.create({
    data: { id: newId(), personId: fields.personId, name: fields.name, tokenHash: digest(token), scopes: JSON.stringify(fields.scopes), expiresAt: fields.expiresAt },
  });
  return { token, record: toRecord(row) };
}

/** The live token `token` is, or null: unknown, revoked, expired, or its person deactivated. */
export async function findLiveToken(token: string, database: StudioDatabase = getDatabase(), now = new Date()): Promise<LiveToken | null> {
  if (!isPersonalToken(token) || token.length > 200) return null;
  const row = await database.personalAccessToken.findUnique({ where: { tokenHash: digest(token) }, include: { person: { select: { displayName: true, role: true, active: true } } } });
  if (!row || row.revokedAt !== null || !row.person.active) return null;
  if (row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime()) return null;
  if (row.lastUsedAt === null || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await database.personalAccessToken.updateMany({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  return { ...toRecord(row), personName: row.person.displayName, role: RoleSchema.parse(row.person.role) };
}

export async function listPersonalTokens(personId: string, database: StudioDatabase = getDatabase()): Promise<PersonalTokenRecord[]> {
  const rows = await database.personalAccessToken.findMany({ where: { personId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return rows.map(toRecord);
}

/** Revokes one of the person's tokens; false when they have no such live token. */
export async function revokePersonalToken(personId: string, id: string, database: StudioDatabase = getDatabase(), now = new Date()): Promise<boolean> {
  return (await database.personalAccessToken.updateMany({ where: { id, personId, revokedAt: null }, data: { revokedAt: now } })).count > 0;
}

/** Revokes every token of a person at once (they were deactivated). */
export async function revokeTokensOf(personId: string, database: StudioDatabase = getDatabase(), now = new Date()): Promise<number> {
  return (await database.personalAccessToken.updateMany({ where: { personId, revokedAt: null }, data: { revokedAt: now } })).count;
}
