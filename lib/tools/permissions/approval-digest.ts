import { createHash } from "node:crypto";

/**
 * A digest of what a person is asked to approve: the call's arguments and the
 * preview they are shown. The card sends back the digest it rendered; a
 * decision on anything else is refused, and a step whose arguments or target
 * changed since gets a new approval rather than the old one's answer.
 *
 * @example
 *   approvalDigest({ command: "ls" }, { kind: "command", command: "ls", workingFolder: ".", background: false })
 *   // "sha256:…" (the same for equal values, whatever the key order)
 */
export function approvalDigest(args: unknown, preview: unknown): string {
  const hash = createHash("sha256").update(canonicalJson({ arguments: args, preview })).digest("hex");
  return `sha256:${hash}`;
}

/** JSON with object keys sorted, so equal values give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
