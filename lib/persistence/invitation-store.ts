import { createHash, randomBytes } from "node:crypto";
import type { InvitationView } from "@/lib/contracts/people";
import { RoleSchema, type Role } from "@/lib/contracts/roles";
import { getDatabase, type StudioDatabase } from "./database";
import { ConflictError } from "./errors";
import { newId } from "./ids";
import { normalizeLogin, toPersonRecord, type PersonRecord } from "./people-store";
import { isUniqueViolation } from "./prisma-errors";
import { markedError } from "@/lib/marked-error";

/**
 * Invitations: a one-time link that lets someone join with a role. The link
 * carries a random secret; only its SHA-256 is kept, so the table alone
 * invites nobody. Accepting is one transaction: the invitation is taken (once,
 * whoever comes second finds it used) and the person made, or neither.
 */

function digest(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export async function createInvitation(
  fields: { role: Role; note: string; invitedBy: string; expiresInHours: number },
  database: StudioDatabase = getDatabase(),
  now = new Date(),
): Promise<{ secret: string; invitation: InvitationView }> {
  const secret = randomBytes(32).toString("base64url");
  const row = await database.invitation.create({
    data: { id: newId(), secretHash: digest(secret), role: fields.role, note: fields.note, invitedBy: fields.invitedBy, createdAt: now, expiresAt: new Date(now.getTime() + fields.expiresInHours * 3600_000) },
  });
  return { secret, invitation: toView(row, now) };
}

type InvitationRow = { id: string; role: string; note: string; invitedBy: string; createdAt: Date; expiresAt: Date; acceptedAt: Date | null; revokedAt: Date | null };

function toView(row: InvitationRow, now: Date): InvitationView {
  const status = row.acceptedAt ? "accepted" : row.revokedAt ? "revoked" : row.expiresAt.getTime() <= now.getTime() ? "expired" : "pending";
  return { id: row.id, role: RoleSchema.parse(row.role), note: row.note, invitedBy: row.invitedBy, createdAt: row.createdAt.toISOString(), expiresAt: row.expiresAt.toISOString(), status };
}

export async function listInvitations(database: StudioDatabase = getDatabase(), now = new Date()): Promise<InvitationView[]> {
  const rows = await database.invitation.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 200 });
  return rows.map((row) => toView(row, now));
}

/** What an invitation link is, before anyone accepts it: its role and note, or why it no longer works. */
export async function readInvitation(secret: string, database: StudioDatabase = getDatabase(), now = new Date()): Promise<InvitationView | null> {
  const row = await database.invitation.findUnique({ where: { secretHash: digest(secret) } });
  return row ? toView(row, now) : null;
}

export async function revokeInvitation(id: string, database: StudioDatabase = getDatabase(), now = new Date()): Promise<boolean> {
  return (await database.invitation.updateMany({ where: { id, acceptedAt: null, revokedAt: null }, data: { revokedAt: now } })).count > 0;
}

/** Why an invitation cannot be accepted, in words for the person holding the link. */
export class InvitationUnusable extends markedError("neurosurfer.invitation-unusable", "InvitationUnusable") {
  constructor(readonly reason: "unknown" | "accepted" | "expired" | "revoked") {
    super(
      reason === "accepted"
        ? "This invitation has been used already; each works once. Ask whoever invited you for a new one."
        : reason === "expired"
          ? "This invitation has expired. Ask whoever invited you for a new one."
          : reason === "revoked"
            ? "This invitation was withdrawn. Ask whoever invited you for a new one."
            : "This invitation link is not one this studio made; check you copied all of it.",
    );
  }
}

/**
 * Takes the invitation and makes its person, in one transaction. Throws
 * InvitationUnusable (used, expired, withdrawn, unknown) or ConflictError
 * (the sign-in name is taken), with nothing written either way.
 */
export async function acceptInvitation(
  secret: string,
  person: { login: string; displayName: string; passwordHash: string },
  database: StudioDatabase = getDatabase(),
  now = new Date(),
): Promise<PersonRecord> {
  const secretHash = digest(secret);
  const login = normalizeLogin(person.login);
  try {
    return await database.$transaction(async (transaction) => {
      const invitation = await transaction.invitation.findUnique({ where: { secretHash } });
      if (!invitation) throw new InvitationUnusable("unknown");
      const view = toView(invitation, now);
      if (view.status !== "pending") throw new InvitationUnusable(view.status);
      const id = newId();
      // Taken once: a second acceptance racing this one updates nothing and stops here.
      const taken = await transaction.invitation.updateMany({ where: { id: invitation.id, acceptedAt: null, revokedAt: null }, data: { acceptedAt: now, acceptedBy: id } });
      if (taken.count !== 1) throw new InvitationUnusable("accepted");
      const row = await transaction.person.create({
        data: { id, login, displayName: person.displayName, passwordHash: person.passwordHash, role: invitation.role, createdBy: invitation.invitedBy, createdAt: now },
      });
      return toPersonRecord(row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError("person", login, `The sign-in name “${login}” is taken; choose another.`);
    throw error;
  }
}
