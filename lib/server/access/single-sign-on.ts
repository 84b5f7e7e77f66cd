import * as oidc from "openid-client";
import { ROLES, type Role } from "@/lib/contracts/roles";
import { readEnvironment, type Environment } from "@/lib/env";
import { recordAudit } from "@/lib/persistence/audit-store";
import { personForSingleSignOn } from "@/lib/persistence/people-store";
import { studioBaseUrl } from "./announce";
import { clientAddress, readCookie } from "./principal";
import { openSession } from "./sign-in";

/**
 * Single sign-on with an OpenID Connect provider (Keycloak, Entra ID, Okta,
 * Google, Authentik…), through the `openid-client` library: the authorization
 * code flow with PKCE, a state and a nonce, all three kept in a short-lived
 * HttpOnly cookie of this browser. The provider's groups give the role
 * (OIDC_ROLE_MAP); someone in no mapped group gets OIDC_DEFAULT_ROLE or is
 * refused. Configured by the OIDC_* environment variables (lib/env.ts).
 */

export const SINGLE_SIGN_ON_START = "/api/auth/oidc/start";
const CALLBACK_PATH = "/api/auth/oidc/callback";
const FLOW_COOKIE = "studio_oidc";
const FLOW_SECONDS = 600;

export interface SingleSignOnSettings {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  groupsClaim: string;
  roleMap: Environment["OIDC_ROLE_MAP"];
  defaultRole: Role | null;
  label: string;
}

/** The provider's settings, or null when single sign-on is not configured. */
export function singleSignOnSettings(environment: Environment = readEnvironment()): SingleSignOnSettings | null {
  if (!environment.OIDC_ISSUER || !environment.OIDC_CLIENT_ID || !environment.OIDC_CLIENT_SECRET) return null;
  return {
    issuer: new URL(environment.OIDC_ISSUER),
    clientId: environment.OIDC_CLIENT_ID,
    clientSecret: environment.OIDC_CLIENT_SECRET,
    groupsClaim: environment.OIDC_GROUPS_CLAIM,
    roleMap: environment.OIDC_ROLE_MAP,
    defaultRole: environment.OIDC_DEFAULT_ROLE ?? null,
    label: environment.OIDC_LABEL,
  };
}

/** The highest role `groups` map to (owner above admin above editor…), else the default role, else null. */
export function roleFromGroups(groups: unknown, settings: Pick<SingleSignOnSettings, "roleMap" | "defaultRole">): Role | null {
  const names = new Set(Array.isArray(groups) ? groups.filter((group): group is string => typeof group === "string") : typeof groups === "string" ? [groups] : []);
  const granted = settings.roleMap.filter((entry) => names.has(entry.group)).map((entry) => entry.role);
  if (granted.length === 0) return settings.defaultRole;
  return ROLES.find((role) => granted.includes(role)) ?? settings.defaultRole;
}

type Discovered = { key: string; configuration: Promise<oidc.Configuration> };
const DISCOVERED_KEY = Symbol.for("neurosurfer.oidc-configuration");
type GlobalWithDiscovery = typeof globalThis & { [DISCOVERED_KEY]?: Discovered };

/** The provider's metadata, read once per issuer and client (again after a failure). */
function configurationOf(settings: SingleSignOnSettings): Promise<oidc.Configuration> {
  const holder = globalThis as GlobalWithDiscovery;
  const key = `${settings.issuer.href} ${settings.clientId}`;
  if (holder[DISCOVERED_KEY]?.key !== key) {
    // Plain http is allowed only for a provider on this machine (lib/env.ts refuses any other).
    const execute = settings.issuer.protocol === "http:" ? [oidc.allowInsecureRequests] : [];
    const configuration = oidc.discovery(settings.issuer, settings.clientId, settings.clientSecret, undefined, { execute });
    holder[DISCOVERED_KEY] = { key, configuration };
    configuration.catch(() => {
      if (holder[DISCOVERED_KEY]?.configuration === configuration) delete holder[DISCOVERED_KEY];
    });
  }
  return holder[DISCOVERED_KEY]!.configuration;
}

interface Flow {
  state: string;
  nonce: string;
  verifier: string;
}

function flowCookie(flow: Flow | null, request: Request): string {
  const secure = new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https" ? "; Secure" : "";
  // Lax, not Strict: the provider's redirect back is a top-level navigation from another site, which must carry it.
  const value = flow === null ? "" : Buffer.from(JSON.stringify(flow)).toString("base64url");
  return `${FLOW_COOKIE}=${value}; Path=${CALLBACK_PATH}; HttpOnly; SameSite=Lax; Max-Age=${flow === null ? 0 : FLOW_SECONDS}${secure}`;
}

function readFlow(request: Request): Flow | null {
  const value = readCookie(request, FLOW_COOKIE);
  if (!value || value.length > 2000) return null;
  try {
    const flow = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as Partial<Flow>;
    return typeof flow.state === "string" && typeof flow.nonce === "string" && typeof flow.verifier === "string" ? (flow as Flow) : null;
  } catch {
    return null;
  }
}

function redirect(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ location, "cache-control": "no-store" });
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  return new Response(null, { status: 303, headers });
}

/** Where the sign-in page says what went wrong. */
function refused(problem: string, request: Request): Response {
  return redirect(`/login?problem=${problem}`, [flowCookie(null, request)]);
}

/** GET /api/auth/oidc/start: off to the provider, with this browser's state, nonce and PKCE verifier kept in a cookie. */
export async function startSingleSignOn(request: Request): Promise<Response> {
  const settings = singleSignOnSettings();
  if (!settings) return refused("sso-off", request);
  let configuration: oidc.Configuration;
  try {
    configuration = await configurationOf(settings);
  } catch (error) {
    console.error(`[studio] single sign-on: the provider ${settings.issuer.href} could not be read`, error);
    return refused("sso-unreachable", request);
  }
  const flow: Flow = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier() };
  const url = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: `${studioBaseUrl()}${CALLBACK_PATH}`,
    scope: "openid profile email",
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: "S256",
  });
  return redirect(url.href, [flowCookie(flow, request)]);
}

/**
 * GET /api/auth/oidc/callback: the provider's answer, checked (state, nonce,
 * PKCE, the ID token's signature, issuer and audience: openid-client does
 * them all), then the person it names signed in, made on their first visit.
 */
export async function finishSingleSignOn(request: Request): Promise<Response> {
  const settings = singleSignOnSettings();
  if (!settings) return refused("sso-off", request);
  const flow = readFlow(request);
  if (!flow) return refused("sso-expired", request);
  const incoming = new URL(request.url);
  // The address the provider sent the browser to, as the studio is known (behind a proxy request.url may differ).
  const current = new URL(`${CALLBACK_PATH}${incoming.search}`, studioBaseUrl());
  let claims: Record<string, unknown>;
  try {
    const configuration = await configurationOf(settings);
    const tokens = await oidc.authorizationCodeGrant(configuration, current, { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce, idTokenExpected: true });
    const idClaims = tokens.claims()!;
    const userInfo = settings.groupsClaim in idClaims ? {} : await oidc.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
    claims = { ...userInfo, ...idClaims };
  } catch (error) {
    console.warn(`[studio] single sign-on refused from ${clientAddress(request)}: ${error instanceof Error ? error.message : String(error)}`);
    await recordAudit({ actor: "someone", action: "sign-in-failed", detail: { with: "oidc", reason: error instanceof Error ? error.message.slice(0, 300) : "refused" }, clientAddress: clientAddress(request) });
    return refused("sso-failed", request);
  }
  const subject = String(claims.sub);
  const displayName = firstString(claims.name, claims.preferred_username, claims.email) ?? subject;
  const role = roleFromGroups(claims[settings.groupsClaim], settings);
  if (role === null) {
    await recordAudit({ actor: displayName, action: "sign-in-failed", detail: { with: "oidc", reason: "no role: in none of the groups OIDC_ROLE_MAP names" }, clientAddress: clientAddress(request) });
    return refused("sso-no-role", request);
  }
  const person = await personForSingleSignOn({ subject: `${settings.issuer.href} ${subject}`, login: firstString(claims.preferred_username, claims.email) ?? subject, displayName, role });
  if (!person) {
    await recordAudit({ actor: displayName, action: "sign-in-failed", detail: { with: "oidc", reason: "deactivated" }, clientAddress: clientAddress(request) });
    return refused("sso-deactivated", request);
  }
  const session = await openSession(person, person.displayName, "oidc", request);
  return redirect("/workflows", [session, flowCookie(null, request)]);
}

function firstString(...values: unknown[]): string | null {
  for (const value of values) if (typeof value === "string" && value.trim() !== "") return value.trim().slice(0, 100);
  return null;
}
