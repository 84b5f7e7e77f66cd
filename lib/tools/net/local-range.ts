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

/** Whether an allow-list entry names the host (or its address), with the URL's port when the entry gives one. */
export function isAllowListed(url: URL, host: string, address: string, allow: readonly string[]): boolean {
  if (allow.length === 0) return false;
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const names = [host.toLowerCase(), address.toLowerCase()];
  return allow.some((entry) => {
    const text = entry.trim().toLowerCase().replace(/^\[|\](?=(:\d+)?$)/g, "");
    // An IPv6 address has colons of its own: an entry that is one whole counts as a host without a port.
    if (names.includes(text)) return true;
    const match = /^(.*?)(?::(\d+))?$/.exec(text);
    return match !== null && names.includes(match[1]!) && (match[2] === undefined || match[2] === port);
  });
}
