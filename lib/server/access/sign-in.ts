import { recordAudit } from "@/lib/persistence/audit-store";
import { createSession, SESSION_DAYS, type SignInMethod } from "@/lib/persistence/session-store";
import { isAccessToken } from "./access-token";
import { loginRetryAfter, recordLoginAttempt, recordLoginFailure, recordLoginSuccess } from "./login-throttle";
import { clientAddress, LOCAL_USER, passwordMatches, sessionCookie, studioPassword } from "./principal";

/**
 * Signing in, the one place for it: the sign-in form (password or token) and
 * the sign-in link both come here. Throttled per address and account, logged
 * to the console and the audit log, and on success a new server-side session.
 */

export type Credential = { kind: "password"; password: string; name: string } | { kind: "token"; token: string; name?: string; method: Extract<SignInMethod, "token" | "link"> };

export type SignInResult =
  | { ok: true; person: string; setCookie: string }
  | { ok: false; status: 401 | 409 | 429; message: string; field: "password" | "token" | null };

export async function signIn(credential: Credential, request: Request): Promise<SignInResult> {
  const address = clientAddress(request);
  const password = studioPassword();
  if (credential.kind === "password" && password === null) {
    return { ok: false, status: 409, message: "This studio has no password (STUDIO_PASSWORD is not set); sign in with the access token it prints.", field: "password" };
  }
  const wait = loginRetryAfter(address);
  if (wait > 0) {
    console.warn(`[studio] sign-in refused from ${address}: too many wrong attempts; it may try again in ${wait} s`);
    return { ok: false, status: 429, message: `Too many wrong attempts from your address; try again in ${wait} s.`, field: null };
  }
  recordLoginAttempt(address);
  const matches = credential.kind === "password" ? passwordMatches(credential.password, password!) : isAccessToken(credential.token);
  const person = credential.kind === "password" ? credential.name : (credential.name ?? LOCAL_USER);
  if (!matches) {
    const failures = recordLoginFailure(address);
    console.warn(`[studio] sign-in failed from ${address} (${credential.kind}, ${failures} in a row)`);
    // Nobody is known yet: a wrong password records the name it claimed, a wrong token no name.
    const claimed = credential.kind === "password" ? `someone calling themselves ${person}` : "someone";
    await recordAudit({ actor: claimed, action: "sign-in-failed", detail: { with: credential.kind, failuresInARow: failures }, clientAddress: address });
    const what = credential.kind === "password" ? "That password is not right." : "That access token is not right; copy it again from where the studio printed it.";
    return { ok: false, status: 401, message: what, field: credential.kind };
  }
  recordLoginSuccess(address);
  const method: SignInMethod = credential.kind === "password" ? "password" : credential.method;
  const { secret } = await createSession({ person, method, clientAddress: address });
  console.log(`[studio] ${person} signed in from ${address} (${method})`);
  await recordAudit({ actor: person, action: "sign-in", detail: { with: method }, clientAddress: address });
  return { ok: true, person, setCookie: sessionCookie(secret, SESSION_DAYS * 24 * 3600, request) };
}
