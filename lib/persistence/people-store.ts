import { RoleSchema, type Role } from "@/lib/contracts/roles";
import { getDatabase, type StudioDatabase } from "./database";
import { newId } from "./ids";
import { isUniqueViolation } from "./prisma-errors";

/**
 * The people who sign in (lib/contracts/roles.ts for their roles). The owner
 * is made the first time anyone needs them: the first sign-in, or a studio
 * upgraded from the days of one identity, whose workflows, sessions and token
 * are the owner's from then on.
 */

export interface PersonRecord {
  id: string;
  login: string;
  displayName: string;
  role: Role;
  active: boolean;
  hasPassword: boolean;
  createdAt: string;
  createdBy: string | null;
  lastSignInAt: string | null;
}

/** The owner's sign-in name until they choose one. */
export const FIRST_OWNER_LOGIN = "owner";

type PersonRow = {
  id: string;
  login: string;
  displayName: string;
  role: string;
  active: boolean;
  passwordHash: string | null;
  createdAt: Date;
  createdBy: string | null;
  lastSignInAt: Date | null;
};

export function toPersonRecord(row: PersonRow): PersonRecord {
  return {
    id: row.id,
    login: row.login,
    displayName: row.displayName,
    role: RoleSchema.parse(row.role),
    active: row.active,
    hasPassword: row.passwordHash !== null,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
  };
}

const OWNER_KEY = Symbol.for("neurosurfer.owner-id");
type GlobalWithOwner = typeof globalThis & { [OWNER_KEY]?: Map<StudioDatabase, string> };

/**
 * The studio's first owner (the one the access token and pre-people sessions
 * belong to), made on first need. Two processes making it at once meet at the
 * unique sign-in name, and both then read the one that landed. The id is
 * kept per process: the first owner is never deleted, only renamed.
 */
export async function firstOwner(database: StudioDatabase = getDatabase()): Promise<PersonRecord> {
  const existing = await database.person.findFirst({ where: { role: "owner" }, orderBy: { createdAt: "asc" } });
  if (existing) return rememberOwner(database, toPersonRecord(existing));
  try {
    const created = await database.person.create({ data: { id: newId(), login: FIRST_OWNER_LOGIN, displayName: "Owner", role: "owner" } });
    return rememberOwner(database, toPersonRecord(created));
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const raced = await database.person.findFirst({ where: { role: "owner" }, orderBy: { createdAt: "asc" } });
    if (!raced) throw error;
    return rememberOwner(database, toPersonRecord(raced));
  }
}

function rememberOwner(database: StudioDatabase, owner: PersonRecord): PersonRecord {
  const holder = globalThis as GlobalWithOwner;
  (holder[OWNER_KEY] ??= new Map()).set(database, owner.id);
  return owner;
}

/**
 * Makes the workflows nobody owns the first owner's: those made before people
 * existed (an upgraded studio), or since by a tool that names no person (the
 * CLI). Until then they count as the first owner's all the same
 * (lib/server/access/workflow-access.ts); this writes it down, so an owner id
 * is never missing from a workflow a person can see. How many it adopted.
 */
export async function adoptOwnerlessWorkflows(ownerId: string, database: StudioDatabase = getDatabase()): Promise<number> {
  return (await database.workflow.updateMany({ where: { ownerId: null }, data: { ownerId } })).count;
}

/** The first owner's id, read once per process and database (every request with the access token needs it). */
export async function firstOwnerId(database: StudioDatabase = getDatabase()): Promise<string> {
  return (globalThis as GlobalWithOwner)[OWNER_KEY]?.get(database) ?? (await firstOwner(database)).id;
}

export async function findPerson(id: string, database: StudioDatabase = getDatabase()): Promise<PersonRecord | null> {
  const row = await database.person.findUnique({ where: { id } });
  return row ? toPersonRecord(row) : null;
}

/** A person by sign-in name (case does not matter), with their password's hash for checking it. */
export async function findPersonByLogin(login: string, database: StudioDatabase = getDatabase()): Promise<(PersonRecord & { passwordHash: string | null }) | null> {
  const row = await database.person.findUnique({ where: { login: normalizeLogin(login) } });
  return row ? { ...toPersonRecord(row), passwordHash: row.passwordHash } : null;
}

/** The person's stored password hash, for checking a password they give again; null when they have none. */
export async function passwordHashOf(personId: string, database: StudioDatabase = getDatabase()): Promise<string | null> {
  return (await database.person.findUnique({ where: { id: personId }, select: { passwordHash: true } }))?.passwordHash ?? null;
}

/** Whether anyone here signs in with a password of their own (the sign-in page then offers it). */
export async function somePersonHasPassword(database: StudioDatabase = getDatabase()): Promise<boolean> {
  return (await database.person.count({ where: { active: true, passwordHash: { not: null } }, take: 1 })) > 0;
}

export function normalizeLogin(login: string): string {
  return login.trim().toLowerCase();
}

export async function listPeople(database: StudioDatabase = getDatabase()): Promise<PersonRecord[]> {
  const rows = await database.person.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(toPersonRecord);
}

/** The active people but `except` by name only, for pickers (sharing a workflow): no login, role or dates. */
export async function listColleagues(except: string, database: StudioDatabase = getDatabase()): Promise<{ id: string; displayName: string }[]> {
  return database.person.findMany({ where: { active: true, id: { not: except } }, select: { id: true, displayName: true }, orderBy: [{ displayName: "asc" }, { id: "asc" }] });
}

export async function recordSignIn(personId: string, database: StudioDatabase = getDatabase(), now = new Date()): Promise<void> {
  await database.person.updateMany({ where: { id: personId }, data: { lastSignInAt: now } });
}

/** Who single sign-on says someone is: their identity at the provider, the names it gives, and the role their groups map to. */
export interface SingleSignOnIdentity {
  /** "<issuer> <subject>": the provider's stable id for them, never their e-mail (which can change hands). */
  subject: string;
  /** What they would like to sign in as (preferred_username or e-mail); made unique here. */
  login: string;
  displayName: string;
  role: Role;
}

/**
 * The person single sign-on signs in: the one already linked to `identity`'s
 * subject, given the role their groups map to now (the provider is where
 * roles are kept); or a new person, never linked to an existing account by a
 * matching e-mail (that would hand someone's account to whoever the provider
 * lets claim the address). Null when the linked person was deactivated here.
 */
export async function personForSingleSignOn(identity: SingleSignOnIdentity, database: StudioDatabase = getDatabase()): Promise<PersonRecord | null> {
  const linked = await database.person.findUnique({ where: { oidcSubject: identity.subject } });
  if (linked) {
    if (!linked.active) return null;
    return toPersonRecord(await database.person.update({ where: { id: linked.id }, data: { role: identity.role, displayName: identity.displayName } }));
  }
  const base = normalizeLogin(identity.login).replace(/[^a-z0-9._@+-]/g, "-").replace(/^[^a-z0-9]+/, "").slice(0, 90) || "person";
  for (let attempt = 1; attempt <= 50; attempt += 1) {
    const login = attempt === 1 && base.length >= 2 ? base : `${base}-${attempt}`;
    try {
      const row = await database.person.create({
        data: { id: newId(), login, displayName: identity.displayName, role: identity.role, oidcSubject: identity.subject, createdBy: null },
      });
      return toPersonRecord(row);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // The subject landed meanwhile (two sign-ins at once): that person, as above.
      if (await database.person.findUnique({ where: { oidcSubject: identity.subject }, select: { id: true } })) return personForSingleSignOn(identity, database);
    }
  }
  throw new Error(`No free sign-in name near “${base}” for a single sign-on person.`);
}
