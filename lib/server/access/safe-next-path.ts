/**
 * Where to go after signing in: only a path inside the studio, never another
 * site. Refuses `//host`, `/\host` (browsers read a backslash as a slash) and
 * anything with control characters, which could smuggle either.
 */
export function safeNextPath(value: string | string[] | null | undefined): string {
  const next = Array.isArray(value) ? value[0] : value;
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.includes("\\") || /[\u0000-\u001f\u007f]/.test(next)) return "/";
  return next;
}
