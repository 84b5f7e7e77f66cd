import { recordAudit } from "@/lib/persistence/audit-store";
import { findPerson, passwordHashOf } from "@/lib/persistence/people-store";
import { passwordProblem, SetPasswordBodySchema } from "@/lib/contracts/people";
import { hashPassword, verifyPassword } from "@/lib/server/access/password-hash";
import { clientAddress } from "@/lib/server/access/principal";
import { requireRecentSignIn } from "@/lib/server/access/recent-sign-in";
import { HttpError, json, readBody, route } from "@/lib/server/http";
import { fieldProblem } from "@/lib/server/people";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

/**
 * Sets the caller's own password: with the current one when they have one,
 * else after a recent sign-in (the owner who came in by the link). Their
 * other browsers are signed out.
 */
export const PUT = route("PUT /api/me/password", async (request, _context, principal) => {
  const { database } = await startStudio();
  if (principal.via === "personal-token") throw new HttpError(403, "Set a password while signed in, not with a token.");
  const body = await readBody(request, SetPasswordBodySchema);
  const person = await findPerson(principal.personId, database);
  if (!person) throw new HttpError(404, "Your person record is gone; sign in again.");
  const current = await passwordHashOf(principal.personId, database);
  if (current !== null) {
    if (!body.currentPassword || !(await verifyPassword(body.currentPassword, current))) throw fieldProblem("currentPassword", "that is not your current password");
  } else {
    requireRecentSignIn(principal, "Setting your password", "decides who can sign in as you from now on");
  }
  const problem = passwordProblem(body.newPassword, person.login);
  if (problem) throw fieldProblem("newPassword", problem);
  await database.$transaction([
    database.person.update({ where: { id: principal.personId }, data: { passwordHash: await hashPassword(body.newPassword) } }),
    database.studioSession.deleteMany({ where: { personId: principal.personId, ...(principal.sessionId ? { id: { not: principal.sessionId } } : {}) } }),
  ]);
  await recordAudit({ actor: principal.person, actorId: principal.personId, action: "password-changed", clientAddress: clientAddress(request) }, database);
  return json({ changed: true });
});
