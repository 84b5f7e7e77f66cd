import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { readEnvironment } from "@/lib/env";

/**
 * Sessions for a studio protected by STUDIO_PASSWORD. A session is a signed
 * cookie (HMAC-SHA256 with a key derived from the password, so changing the
 * password ends every session) holding the name the person gave and an
 * expiry. Without STUDIO_PASSWORD the studio is open to this machine only
 * (it binds 127.0.0.1) and every decision is recorded as by "local user".
 */

export const SESSION_COOKIE = "studio_session";
const SESSION_DAYS = 14;
export const LOCAL_USER = "local user";

const PayloadSchema = z.object({ name: z.string().min(1).max(100), expiresAt: z.number().int() });
type SessionPayload = z.infer<typeof PayloadSchema>;

export function studioPassword(): string | null {
  return readEnvironment().STUDIO_PASSWORD ?? null;
}

function signingKey(password: string): Buffer {
  return createHash("sha256").update(`neurosurfer-studio-session:${password}`).digest();
}

function sign(payload: string, password: string): string {
  return createHmac("sha256", signingKey(password)).update(payload).digest("base64url");
}

/** Compares in constant time, so the answer's timing says nothing about the password. */
export function passwordMatches(given: string, password: string): boolean {
  const left = createHash("sha256").update(given).digest();
  const right = createHash("sha256").update(password).digest();
  return timingSafeEqual(left, right);
}

export function createSessionToken(name: string, password: string, now = Date.now()): { token: string; maxAgeSeconds: number } {
  const payload: SessionPayload = { name, expiresAt: now + SESSION_DAYS * 24 * 3600 * 1000 };
  const encoded = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return { token: `${encoded}.${sign(encoded, password)}`, maxAgeSeconds: SESSION_DAYS * 24 * 3600 };
}

/** The session's person, or null when the token is missing, forged or expired. */
export function verifySessionToken(token: string | undefined, password: string, now = Date.now()): SessionPayload | null {
  if (!token) return null;
  const [encoded, signature] = token.split(".");
  if (!encoded || !signature) return null;
  const expected = Buffer.from(sign(encoded, password));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const payload = PayloadSchema.parse(JSON.parse(Buffer.from(encoded, "base64url").toString("utf8")));
    return payload.expiresAt > now ? payload : null;
  } catch {
    return null;
  }
}

export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return decodeURIComponent(value.join("="));
  }
  return undefined;
}

/** Whether the request may proceed: always without a password, else with a valid session. */
export function isAuthorised(request: Request): boolean {
  const password = studioPassword();
  return password === null || verifySessionToken(readCookie(request, SESSION_COOKIE), password) !== null;
}

/** Who is making the request, for "decided by" and "cancelled by". */
export function currentUser(request: Request): string {
  const password = studioPassword();
  if (password === null) return LOCAL_USER;
  return verifySessionToken(readCookie(request, SESSION_COOKIE), password)?.name ?? "unknown";
}
