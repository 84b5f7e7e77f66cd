import { recordAudit } from "@/lib/persistence/audit-store";
import { findPersonByLogin, firstOwner, passwordHashOf, recordSignIn, type PersonRecord } from "@/lib/persistence/people-store";
import { createSession, SESSION_DAYS, type SignInMethod } from "@/lib/persistence/session-store";
import type { IdentityProofs } from "@/lib/validations/sign-in";
import { isAccessToken } from "./access-token";
import { loginRetryAfter, recordLoginAttempt, recordLoginFailure, recordLoginSuccess } from "./login-throttle";
import { verifyPassword } from "./password-hash";
import { clientAddress, LOCAL_USER, passwordMatches, sessionCookie, studioPassword, type Principal } from "./principal";

/**
 * Signing in, the one place for it: the sign-in form (a name and password, or
 * the token) and the sign-in link both come here. Throttled per address and
 * account, logged to the console and the audit log, and on success a new
 * server-side session of the person.
 */

export type Credential = { kind: "password"; password: string; name: string } | { kind: "token"; token: string; name?: string; method: Extract<SignInMethod, "token" | "link"> };

export type SignInResult =
  | { ok: true; person: string; setCookie: string }
  | { ok: false; status: 401 | 409 | 429; message: string; field: "password" | "token" | null };

/**
 * Who a name and password sign in as, or null. A person's own password first;
 * then the studio's one password (STUDIO_PASSWORD), which is the first
 * owner's, recorded under the name typed, as before people existed.
 */
async function personForPassword(name: string, password: string): Promise<{ person: PersonRecord; label: string } | null> {
  const person = await findPersonByLogin(name);
  if (person?.passwordHash) {
    return person.active && (await verifyPassword(password, person.passwordHash)) ? { person, label: person.displayName } : null;
  }
  const studio = studioPassword();
  if (studio !== null && passwordMatches(password, studio)) return { person: await firstOwner(), label: name };
  return null;
}

/** Whether any password sign-in can work here: the studio's password, or some person's own. */
async function passwordsExist(name: string): Promise<boolean> {
  return studioPassword() !== null || Boolean((await findPersonByLogin(name))?.passwordHash);
}

export async function signIn(credential: Credential, request: Request): Promise<SignInResult> {
  const address = clientAddress(request);
  if (credential.kind === "password" && !(await passwordsExist(credential.name))) {
    return {
      ok: false,
      status: 409,
      message: "No one here signs in with that name and a password (and STUDIO_PASSWORD is not set); sign in with the access token the studio prints, or your invitation link.",
      field: "password",
    };
  }
  const wait = loginRetryAfter(address);
  if (wait > 0) {
    console.warn(`[studio] sign-in refused from ${address}: too many wrong attempts; it may try again in ${wait} s`);
    return { ok: false, status: 429, message: `Too many wrong attempts from your address; try again in ${wait} s.`, field: null };
  }
  recordLoginAttempt(address);
  const signedIn =
    credential.kind === "password"
      ? await personForPassword(credential.name, credential.password)
      : isAccessToken(credential.token)
        ? { person: await firstOwner(), label: credential.name ?? LOCAL_USER }
        : null;
  if (!signedIn) {
    const failures = recordLoginFailure(address);
    console.warn(`[studio] sign-in failed from ${address} (${credential.kind}, ${failures} in a row)`);
    // Nobody is known yet: a wrong password records the name it claimed, a wrong token no name.
    const claimed = credential.kind === "password" ? `someone calling themselves ${credential.name}` : "someone";
    await recordAudit({ actor: claimed, action: "sign-in-failed", detail: { with: credential.kind, failuresInARow: failures }, clientAddress: address });
    const what = credential.kind === "password" ? "That password is not right." : "That access token is not right; copy it again from where the studio printed it.";
    return { ok: false, status: 401, message: what, field: credential.kind };
  }
  recordLoginSuccess(address);
  const method: SignInMethod = credential.kind === "password" ? "password" : credential.method;
  const { person, label } = signedIn;
  return { ok: true, person: label, setCookie: await openSession(person, label, method, request) };
}

/** A new server-side session of `person`, recorded as `label`, logged; its cookie's Set-Cookie value. */
export async function openSession(person: PersonRecord, label: string, method: SignInMethod, request: Request): Promise<string> {
  const address = clientAddress(request);
  const { secret } = await createSession({ person: label, personId: person.id, method, clientAddress: address });
  await recordSignIn(person.id);
  console.log(`[studio] ${label} signed in from ${address} (${method})`);
  await recordAudit({ actor: label, actorId: person.id, action: "sign-in", detail: { with: method }, clientAddress: address });
  return sessionCookie(secret, SESSION_DAYS * 24 * 3600, request);
}

/** What {@link provesIdentity} can accept from this person, so the confirmation dialog asks for that and nothing else. */
export async function identityProofs(principal: Principal): Promise<IdentityProofs> {
  const ownPassword = (await passwordHashOf(principal.personId)) !== null;
  return { password: ownPassword || (principal.firstOwner && studioPassword() !== null), token: principal.firstOwner };
}

/**
 * Whether `proof` shows again that the caller is who their session says
 * (before a privileged change): their own password; for the first owner also
 * the studio's password or the access token, which are theirs.
 */
export async function provesIdentity(principal: Principal, proof: { password?: string; token?: string }): Promise<boolean> {
  if (proof.token !== undefined) return principal.firstOwner && isAccessToken(proof.token);
  if (proof.password === undefined) return false;
  const hash = await passwordHashOf(principal.personId);
  if (hash !== null) return verifyPassword(proof.password, hash);
  const studio = studioPassword();
  return principal.firstOwner && studio !== null && passwordMatches(proof.password, studio);
}
