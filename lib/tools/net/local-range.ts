/**
 * Where an IP address leads, for the outbound-address guardrail: this machine,
 * the private network around it, link-local addresses, or a cloud's metadata
 * service (which hands out credentials). Free of imports: the gate and the
 * approval card's contract read it.
 */
export type LocalRange = "loopback" | "unspecified" | "private" | "link-local" | "metadata";

/** What each range is, in words for the approval card and the refusal. */
export const LOCAL_RANGE_WORDS: Readonly<Record<LocalRange, string>> = {
  loopback: "this machine (loopback)",
  unspecified: "this machine (0.0.0.0)",
  private: "a private network address",
  "link-local": "a link-local address",
  metadata: "the cloud metadata service, which hands out credentials",
};
