import { recordAudit } from "@/lib/persistence/audit-store";
import { confirmSession } from "@/lib/persistence/session-store";
import { HttpError, json, readBody, route } from "@/lib/server/http";
import { passwordHashOf } from "@/lib/persistence/people-store";
import { loginRetryAfter, recordLoginAttempt, recordLoginFailure, recordLoginSuccess } from "@/lib/server/access/login-throttle";
import { clientAddress, studioPassword } from "@/lib/server/access/principal";
import { provesIdentity } from "@/lib/server/access/sign-in";
import { ConfirmIdentityBodySchema } from "@/lib/validations/sign-in";

export const dynamic = "force-dynamic";

/** "Confirm it is you": the password or the token again, which opens privileged changes for a few minutes. */
export const POST = route("POST /api/auth/confirm", async (request, _context, principal) => {
  const body = await readBody(request, ConfirmIdentityBodySchema);
  if (!principal.sessionId) return json({ confirmed: true });
  const address = clientAddress(request);
  const wait = loginRetryAfter(address);
  if (wait > 0) throw new HttpError(429, `Too many wrong attempts from your address; try again in ${wait} s.`);
  recordLoginAttempt(address);
  const field = body.password ? "password" : "token";
  if (!(await provesIdentity(principal, { password: body.password, token: body.token }))) {
    recordLoginFailure(address);
    await recordAudit({ actor: principal.person, actorId: principal.personId, action: "sign-in-failed", detail: { with: field, while: "confirming" }, clientAddress: address });
    const noPassword = body.password !== undefined && principal.firstOwner && studioPassword() === null && !(await passwordHashOf(principal.personId));
    const message = noPassword ? "This studio has no password; enter the access token." : `That ${field === "password" ? "password" : "access token"} is not right.`;
    throw new HttpError(401, message, { issues: [{ path: field, message: message.replace(/\.$/, ""), code: "custom" }] });
  }
  recordLoginSuccess(address);
  await confirmSession(principal.sessionId);
  await recordAudit({ actor: principal.person, actorId: principal.personId, action: "identity-confirmed", detail: { with: field }, clientAddress: address });
  return json({ confirmed: true });
});
