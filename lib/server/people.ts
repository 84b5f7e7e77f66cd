import { passwordProblem, type AcceptInvitationBody, type ChangePersonBody } from "@/lib/contracts/people";
import { seesEveryWorkflow, type Role } from "@/lib/contracts/roles";
import { getDatabase, NotFoundError, type StudioDatabase } from "@/lib/persistence";
import { ConflictError } from "@/lib/persistence/errors";
import { acceptInvitation } from "@/lib/persistence/invitation-store";
import { findPerson, toPersonRecord, type PersonRecord } from "@/lib/persistence/people-store";
import { hashPassword } from "./access/password-hash";
import type { Principal } from "./access/principal";
import { HttpError } from "./http";

/**
 * The rules about people that are more than storage: who may give which
 * role, that a studio always keeps an active owner, and that a person
 * deactivated is out at once (every session ended, every token revoked, in
 * the same transaction as the change).
 */

/** A 422 on one field, as readBody's zod errors are. */
export function fieldProblem(path: string, message: string): HttpError {
  return new HttpError(422, `${path}: ${message}`, { issues: [{ path, message, code: "custom" }] });
}

/** Only an owner makes, changes or removes an owner; an admin manages everyone else. */
export function requireMayGive(principal: Principal, role: Role, what: string): void {
  if (role === "owner" && principal.role !== "owner") throw new HttpError(403, `${what} needs an owner: only an owner makes or changes an owner.`);
  if (!seesEveryWorkflow(principal.role)) throw new HttpError(403, `${what} needs an owner or admin.`);
}

export async function joinWithInvitation(body: AcceptInvitationBody, database: StudioDatabase = getDatabase()): Promise<PersonRecord> {
  const problem = passwordProblem(body.password, body.login);
  if (problem) throw fieldProblem("password", problem);
  return acceptInvitation(body.secret, { login: body.login, displayName: body.displayName, passwordHash: await hashPassword(body.password) }, database);
}

/**
 * Changes a person's role or whether they may sign in. Refused, with nothing
 * changed, when it would leave no active owner, or when the caller may not
 * touch that role.
 */
export async function changePerson(principal: Principal, id: string, body: ChangePersonBody, database: StudioDatabase = getDatabase()): Promise<PersonRecord> {
  const person = await findPerson(id, database);
  if (!person) throw new NotFoundError("person", id);
  requireMayGive(principal, person.role, `Changing ${person.displayName}`);
  if (body.role) requireMayGive(principal, body.role, `Making someone ${body.role}`);
  const role = body.role ?? person.role;
  const active = body.active ?? person.active;
  return database.$transaction(async (transaction) => {
    if (person.role === "owner" && person.active && (role !== "owner" || !active)) {
      const otherOwners = await transaction.person.count({ where: { role: "owner", active: true, id: { not: id } } });
      if (otherOwners === 0) throw new ConflictError("person", id, `${person.displayName} is the only active owner; make someone else an owner first, so the studio always has one.`);
    }
    const row = await transaction.person.update({ where: { id }, data: { role, active, deactivatedAt: active ? null : new Date() } });
    if (!active) {
      // Out at once: no session or token of theirs answers another request.
      await transaction.studioSession.deleteMany({ where: { personId: id } });
      await transaction.personalAccessToken.updateMany({ where: { personId: id, revokedAt: null }, data: { revokedAt: new Date() } });
    }
    return toPersonRecord(row);
  });
}
