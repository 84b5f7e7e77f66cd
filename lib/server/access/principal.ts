import { createHash, timingSafeEqual } from "node:crypto";
import { readEnvironment } from "@/lib/env";
import { findSession } from "@/lib/persistence/session-store";
import { isAccessToken } from "./access-token";

/**
 * Who is making a request. Every request that reads or changes anything needs
 * one of two credentials, on loopback too and with no password set:
 * - a session cookie, made by signing in (the password, the access token, or
 *   the sign-in link the studio prints), ended on the server by signing out;
 * - `Authorization: Bearer <access token>`, for scripts, the CLI and tests.
 */

export const SESSION_COOKIE = "studio_session";
/** Who a sign-in with the token (rather than a password and a name) is recorded as. */
export const LOCAL_USER = "local user";
/** Who a request carrying the bearer token is recorded as. */
export const TOKEN_USER = "access token";

export interface Principal {
  person: string;
  via: "session" | "token";
  /** The session's id (for signing out and confirming), null for the bearer token. */
  sessionId: string | null;
  /** Epoch ms of the last time this person proved who they are; now, for the token. */
  authenticatedAt: number;
}

export function studioPassword(): string | null {
  return readEnvironment().STUDIO_PASSWORD ?? null;
}

/** Compares in constant time, so the answer's timing says nothing about the password. */
export function passwordMatches(given: string, password: string): boolean {
  const left = createHash("sha256").update(given).digest();
  const right = createHash("sha256").update(password).digest();
  return timingSafeEqual(left, right);
}

/** A cookie's value; undefined when absent or not valid percent-encoding (a malformed cookie is no session, not an error). */
export function readCookie(request: Pick<Request, "headers">, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join("="));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function bearerToken(request: Pick<Request, "headers">): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  return match ? match[1]! : null;
}

/** The request's person, or null when it carries no valid credential. Takes a page's `headers()` too. */
export async function authenticate(request: Pick<Request, "headers">): Promise<Principal | null> {
  const token = bearerToken(request);
  if (token !== null) return isAccessToken(token) ? { person: TOKEN_USER, via: "token", sessionId: null, authenticatedAt: Date.now() } : null;
  const secret = readCookie(request, SESSION_COOKIE);
  if (!secret || secret.length > 200) return null;
  const session = await findSession(secret);
  if (!session) return null;
  return { person: session.person, via: "session", sessionId: session.id, authenticatedAt: Date.parse(session.authenticatedAt) };
}

/**
 * The client's address. scripts/serve.mjs (the way the studio is started)
 * writes the socket's address into X-Forwarded-For, replacing what a client
 * sent, so this is the connecting machine, not a header it chose.
 */
export function clientAddress(request: Request): string {
  return (request.headers.get("x-forwarded-for") ?? "").split(",")[0]!.trim().slice(0, 100) || "unknown";
}

export function sessionCookie(secret: string, maxAgeSeconds: number, request: Request): string {
  const secure = new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https" ? "; Secure" : "";
  return `${SESSION_COOKIE}=${secret}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`;
}

export const CLEARED_SESSION_COOKIE = `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;
