import { NextResponse, type NextRequest } from "next/server";
import { isAuthorised } from "@/lib/server/session";

/**
 * With STUDIO_PASSWORD set, every page, route and event stream needs a
 * session: pages redirect to /login, API calls get 401. Route handlers check
 * again (lib/server/http.ts), so this is the first gate, not the only one.
 */
export function proxy(request: NextRequest): NextResponse {
  // Next answers a path that is not valid percent-encoding (`/api/runs/%E0%A4%A`) with a bare 500 when it decodes route params.
  if (!isDecodable(request.nextUrl.pathname)) {
    return NextResponse.json({ error: "The address is not valid percent-encoding; check the link." }, { status: 400 });
  }
  // MCP clients carry the studio's MCP token instead of a session; the route checks it.
  if (isAuthorised(request) || request.nextUrl.pathname === "/api/mcp") return NextResponse.next();
  const { pathname, search } = request.nextUrl;
  if (pathname.startsWith("/api/")) {
    return NextResponse.json({ error: "Sign in first: this studio is protected by a password." }, { status: 401 });
  }
  const login = new URL("/login", request.url);
  login.searchParams.set("next", `${pathname}${search}`);
  return NextResponse.redirect(login);
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
  // Everything except the sign-in page and endpoints and Next's own assets.
  matcher: ["/((?!login|api/auth/|_next/static|_next/image|icon.svg|favicon.ico).*)"],
};
