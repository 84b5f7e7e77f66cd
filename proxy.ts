import { NextResponse, type NextRequest } from "next/server";
import { addressingRefusal } from "@/lib/server/access/addressing";
import { authenticate } from "@/lib/server/access/principal";
import { DEFAULT_NEXT_PATH, safeNextPath } from "@/lib/navigation/safe-next-path";
import { securityHeaders } from "@/lib/server/access/security-headers";
import { signIn } from "@/lib/server/access/sign-in";
import { SIGN_IN_FIRST } from "@/lib/server/http";

/**
 * The studio's door, in front of every page, route, event stream and asset:
 * 1. a request addressed to a host name the studio does not answer to (DNS
 *    rebinding) or a change sent by another site's page is refused (403);
 * 2. `/login?token=…` (the link the studio prints) signs the browser in and
 *    drops the token from the address bar;
 * 3. everything but the sign-in page, its endpoints, /api/mcp (its own token),
 *    webhook deliveries under /hooks/ and /hooks-test/ (each checked by its webhook's own rules)
 *    and Next's assets needs a credential: pages redirect to /login, API
 *    calls get 401.
 * Every answer carries the security headers (no framing, no sniffing).
 * Route handlers check again (lib/server/http.ts), so this is the first gate,
 * not the only one.
 */
export async function proxy(request: NextRequest): Promise<NextResponse> {
  return withSecurityHeaders(await decide(request));
}

async function decide(request: NextRequest): Promise<NextResponse> {
  const { pathname, search, searchParams } = request.nextUrl;
  // /metrics is /api/metrics (next.config.ts), for a Prometheus scrape: a missing credential is a 401 there too.
  const isApi = pathname.startsWith("/api/") || pathname === "/metrics";
  // Next answers a path that is not valid percent-encoding (`/api/runs/%E0%A4%A`) with a bare 500 when it decodes route params.
  if (!isDecodable(pathname)) {
    return NextResponse.json({ error: "The address is not valid percent-encoding; check the link." }, { status: 400 });
  }
  // Webhook deliveries are public by design and checked one by one (host, origin, credentials): lib/server/hooks/deliver.ts.
  if (pathname.startsWith("/hooks/") || pathname.startsWith("/hooks-test/")) return NextResponse.next();
  const refusal = addressingRefusal(request);
  if (refusal) {
    return isApi
      ? NextResponse.json({ error: refusal.message }, { status: refusal.status })
      : new NextResponse(refusal.message, { status: refusal.status, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  if (pathname === "/login" && searchParams.has("token")) return signInWithLink(request);
  if (isOpen(pathname)) return NextResponse.next();
  if (await authenticate(request)) return NextResponse.next();
  if (isApi) return NextResponse.json({ error: SIGN_IN_FIRST }, { status: 401 });
  const login = new URL("/login", request.url);
  // The bare address is no page of its own to return to: signing in from it opens the workflows (DEFAULT_NEXT_PATH).
  if (pathname !== "/" || search !== "") login.searchParams.set("next", `${pathname}${search}`);
  return NextResponse.redirect(login);
}

/** Paths served without a credential; each has its own rule. */
function isOpen(pathname: string): boolean {
  return (
    pathname === "/login" ||
    // An invitation link: the page says what it is and whether it still works; joining is its own route's check.
    pathname.startsWith("/invite/") ||
    pathname === "/api/auth/login" ||
    pathname === "/api/auth/logout" ||
    // Single sign-on: going to the provider, and its answer (checked by the route).
    pathname === "/api/auth/oidc/start" ||
    pathname === "/api/auth/oidc/callback" ||
    // Holds the invitation's secret, checked once by the route.
    pathname === "/api/invitations/accept" ||
    // MCP clients carry the studio's MCP token instead of a session; the route checks it.
    pathname === "/api/mcp" ||
    pathname.startsWith("/_next/static/") ||
    pathname === "/icon.svg" ||
    pathname === "/favicon.ico"
  );
}

/** The printed link: sign in with its token, then go on to `next` (or home) with the token gone from the address. */
async function signInWithLink(request: NextRequest): Promise<NextResponse> {
  const { searchParams } = request.nextUrl;
  const next = safeNextPath(searchParams.get("next"));
  const result = await signIn({ kind: "token", token: searchParams.get("token") ?? "", method: "link" }, request);
  if (!result.ok) {
    const retry = new URL("/login", request.url);
    retry.searchParams.set("problem", result.status === 429 ? "throttled" : "link");
    if (next !== DEFAULT_NEXT_PATH) retry.searchParams.set("next", next);
    return NextResponse.redirect(retry, 303);
  }
  const response = NextResponse.redirect(new URL(next, request.url), 303);
  response.headers.append("set-cookie", result.setCookie);
  return response;
}

function withSecurityHeaders(response: NextResponse): NextResponse {
  for (const [name, value] of Object.entries(securityHeaders())) response.headers.set(name, value);
  return response;
}

function isDecodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

export const config = {
  // Every request, assets included: the Host check comes before anything is served.
  matcher: "/:path*",
};
