/**
 * Whether a request that changes something comes from the studio's own pages.
 * Browsers send `Origin` with every POST, PUT, PATCH and DELETE, and
 * `Sec-Fetch-Site` with every request; a page on another site (or another
 * port of this machine, which is "same-site") gives itself away in one or the
 * other. Scripts and the CLI send neither and authenticate with the token.
 * Applies signed in or not: a session cookie is not consent.
 */

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function changesState(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/** The reason to refuse `request`, or null when it may go on. `ownOrigins` are e.g. http://127.0.0.1:3000. */
export function crossSiteReason(request: Request, ownOrigins: readonly string[]): string | null {
  if (!changesState(request.method)) return null;
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite === "cross-site" || fetchSite === "same-site") {
    return `A page on another site (Sec-Fetch-Site: ${fetchSite}) may not change anything in the studio.`;
  }
  const origin = request.headers.get("origin");
  if (origin === null) return null;
  if (!ownOrigins.includes(origin.toLowerCase())) {
    return `A page from ${origin === "null" ? "an opaque origin" : JSON.stringify(origin.slice(0, 200))} may not change anything in the studio; only its own pages may.`;
  }
  return null;
}

/**
 * The origins the studio's own pages have for this request: the scheme and the
 * Host it was addressed to (already allow-listed), plus STUDIO_PUBLIC_URL's
 * origin when a TLS proxy in front of the studio makes the browser's scheme
 * differ from the one this server sees.
 */
export function ownOrigins(request: Request, publicUrl: string | undefined): string[] {
  const url = new URL(request.url);
  const host = request.headers.get("host") ?? url.host;
  const origins = [`${url.protocol}//${host}`.toLowerCase()];
  if (publicUrl) origins.push(new URL(publicUrl).origin.toLowerCase());
  return origins;
}
