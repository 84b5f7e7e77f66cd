import { recordAudit } from "@/lib/persistence/audit-store";
import { confirmSession } from "@/lib/persistence/session-store";
import { HttpError, json, readBody, route } from "@/lib/server/http";
import { isAccessToken } from "@/lib/server/access/access-token";
import { loginRetryAfter, recordLoginAttempt, recordLoginFailure, recordLoginSuccess } from "@/lib/server/access/login-throttle";
import { clientAddress, passwordMatches, studioPassword } from "@/lib/server/access/principal";
import { ConfirmIdentityBodySchema } from "@/lib/validations/sign-in";

export const dynamic = "force-dynamic";

/** "Confirm it is you": the password or the token again, which opens privileged changes for a few minutes. */
export const POST = route(async (request, _context, principal) => {
  const body = await readBody(request, ConfirmIdentityBodySchema);
  if (!principal.sessionId) return json({ confirmed: true });
  const address = clientAddress(request);
  const wait = loginRetryAfter(address);
  if (wait > 0) throw new HttpError(429, `Too many wrong attempts from your address; try again in ${wait} s.`);
  recordLoginAttempt(address);
  const password = studioPassword();
  const field = body.password ? "password" : "token";
  const matches = body.password ? password !== null && passwordMatches(body.password, password) : isAccessToken(body.token!);
  if (!matches) {
    recordLoginFailure(address);
    await recordAudit({ actor: principal.person, action: "sign-in-failed", detail: { with: field, while: "confirming" }, clientAddress: address });
    const message = body.password && password === null ? "This studio has no password; enter the access token." : `That ${field === "password" ? "password" : "access token"} is not right.`;
    throw new HttpError(401, message, { issues: [{ path: field, message: message.replace(/\.$/, ""), code: "custom" }] });
  }
  recordLoginSuccess(address);
  await confirmSession(principal.sessionId);
  await recordAudit({ actor: principal.person, action: "identity-confirmed", detail: { with: field }, clientAddress: address });
  return json({ confirmed: true });
});
