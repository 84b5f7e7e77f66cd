import { createHash } from "node:crypto";
import { canonicalJson } from "./canonical-json";

export { canonicalJson };

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
