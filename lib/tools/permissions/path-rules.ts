import picomatch from "picomatch";
import type { Guardrails } from "./guardrails";

const matcherCache = new Map<string, (path: string) => boolean>();

function matcher(pattern: string): (path: string) => boolean {
  let match = matcherCache.get(pattern);
  if (!match) {
    match = picomatch(pattern, { dot: true });
    matcherCache.set(pattern, match);
  }
  return match;
}

/** The first pattern that matches `relativePath` (forward slashes, relative to the root), or null. */
export function firstMatch(patterns: readonly string[], relativePath: string): string | null {
  for (const pattern of patterns) if (matcher(pattern)(relativePath)) return pattern;
  return null;
}

/** Why guardrails refuse any access to `relativePath`, or null when they allow it. */
export function pathRefusal(guardrails: Guardrails, relativePath: string): string | null {
  if (relativePath === ".") return null;
  const denied = firstMatch(guardrails.pathDeny, relativePath);
  if (denied) return `"${relativePath}" is protected by the guardrail path deny list (${denied}).`;
  if (!firstMatch(guardrails.pathAllow, relativePath)) {
    return `"${relativePath}" is not in the guardrail path allow list (${guardrails.pathAllow.join(", ") || "empty"}).`;
  }
  return null;
}
