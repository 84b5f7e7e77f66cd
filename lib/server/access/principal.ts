import { createHash, timingSafeEqual } from "node:crypto";
import { readEnvironment } from "@/lib/env";
import { ROLE_SCOPES, type Role, type Scope } from "@/lib/contracts/roles";
import { firstOwnerId } from "@/lib/persistence/people-store";
import { findLiveToken, isPersonalToken } from "@/lib/persistence/personal-token-store";
import { findSession } from "@/lib/persistence/session-store";
import { isAccessToken } from "./access-token";

/**
 * Who is making a request. Every request that reads or changes anything needs
 * a credential, on loopback too and with no password set:
 * - a session cookie, made by signing in (a person's password, the access
 *   token, or the sign-in link the studio prints), ended on the server by
 *   signing out;
 * - `Authorization: Bearer <access token>`: the first owner's machine
 *   credential, for scripts, the CLI and tests;
 * - `Authorization: Bearer nsp_…`: a person's personal access token, with the
 *   scopes it was given (never more than their role's now).
 */

export const SESSION_COOKIE = "studio_session";
/** Who a sign-in with the token (rather than a password and a name) is recorded as. */
export const LOCAL_USER = "local user";
/** Who a request carrying the bearer token is recorded as. */
export const TOKEN_USER = "access token";

export interface Principal {
  /** How what they do is recorded: their name (for the access token, "access token"; for a personal token, with its name). */
  person: string;
  personId: string;
  role: Role;
  /** What this credential may do at most: the role's scopes, narrowed by a personal token's. A workflow's share narrows further. */
  scopes: ReadonlySet<Scope>;
  via: "session" | "token" | "personal-token";
  /** A personal token's name; null otherwise. */
  tokenName: string | null;
  /** The session's id (for signing out and confirming), null for a bearer token. */
  sessionId: string | null;
  /** Epoch ms of the last time this person proved who they are; now, for a bearer token. */
  authenticatedAt: number;
  /** Whether they are the studio's first owner, whose are the sessions and workflows made before people existed. */
  firstOwner: boolean;
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
  if (token !== null) {
    if (isPersonalToken(token)) {
      const live = await findLiveToken(token);
      if (!live) return null;
      const allowed = new Set(ROLE_SCOPES[live.role]);
      const ownerId = await firstOwnerId();
      return {
        person: `${live.personName} (token ${live.name})`,
        personId: live.personId,
        role: live.role,
        scopes: new Set(live.scopes.filter((scope) => allowed.has(scope))),
        via: "personal-token",
        tokenName: live.name,
        sessionId: null,
        authenticatedAt: Date.now(),
        firstOwner: live.personId === ownerId,
      };
    }
    if (!isAccessToken(token)) return null;
    return ownerPrincipal(TOKEN_USER, { via: "token", sessionId: null, authenticatedAt: Date.now() });
  }
  const secret = readCookie(request, SESSION_COOKIE);
  if (!secret || secret.length > 200) return null;
  const session = await findSession(secret);
  if (!session) return null;
  const authenticatedAt = Date.parse(session.authenticatedAt);
  // Made before people existed: the first owner's.
  if (session.personId === null || session.role === null) return ownerPrincipal(session.person, { via: "session", sessionId: session.id, authenticatedAt });
  return signedInAs({ id: session.personId, name: session.person, role: session.role }, await firstOwnerId(), { via: "session", sessionId: session.id, authenticatedAt });
}

/**
 * A person as a session of theirs makes them: their role's scopes, no
 * narrower. Also how the studio asks, with no request at hand, what a person
 * may do (who may decide an approval, to tell them it waits).
 */
export function signedInAs(
  person: { id: string; name: string; role: Role },
  ownerId: string,
  how: Pick<Principal, "via" | "sessionId" | "authenticatedAt"> = { via: "session", sessionId: null, authenticatedAt: Date.now() },
): Principal {
  return { person: person.name, personId: person.id, role: person.role, scopes: new Set(ROLE_SCOPES[person.role]), tokenName: null, firstOwner: person.id === ownerId, ...how };
}

async function ownerPrincipal(person: string, how: Pick<Principal, "via" | "sessionId" | "authenticatedAt">): Promise<Principal> {
  return { person, personId: await firstOwnerId(), role: "owner", scopes: new Set(ROLE_SCOPES.owner), tokenName: null, firstOwner: true, ...how };
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

/** Who a run started by this request is recorded as started by. */
export function starterOf(principal: Principal): { personId: string; label: string } {
  return { personId: principal.personId, label: principal.person };
}
