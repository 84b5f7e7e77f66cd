/** Where to go when `next` is missing or refused: the workflows, what a person signs in to build (as n8n opens on its workflow list). */
export const DEFAULT_NEXT_PATH = "/workflows";

// Any origin works: a path that resolves elsewhere changed origin, whatever this one is.
const PROBE_ORIGIN = "http://studio.invalid";

/**
 * The path to go to after signing in, if it stays inside the studio, else
 * the workflow list. Browsers read `\` as `/` and drop tabs and line breaks, so `/\host`
 * and `/\t/host` are other sites in disguise: a backslash, a control or
 * invisible character, or a second leading slash refuses the value outright.
 * One function for every place that follows `next` (the login page, the login
 * form, the proxy's redirect).
 *
 * @example
 *   safeNextPath("/runs/1?tab=events") // "/runs/1?tab=events"
 *   safeNextPath("/\\evil.test")        // "/workflows"
 */
export function safeNextPath(value: string | readonly string[] | null | undefined): string {
  const next = typeof value === "string" ? value : value?.[0];
  if (!next || next.length > 2_000) return DEFAULT_NEXT_PATH;
  if (!next.startsWith("/") || next.startsWith("//")) return DEFAULT_NEXT_PATH;
  if (/[\\\p{Cc}\p{Cf}\p{Z}]/u.test(next)) return DEFAULT_NEXT_PATH;
  try {
    const resolved = new URL(next, PROBE_ORIGIN);
    if (resolved.origin !== PROBE_ORIGIN) return DEFAULT_NEXT_PATH;
    return `${resolved.pathname}${resolved.search}${resolved.hash}`;
  } catch {
    return DEFAULT_NEXT_PATH;
  }
}
