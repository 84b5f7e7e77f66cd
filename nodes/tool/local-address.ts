import net from "node:net";

/**
 * Finding addresses that only mean something on this machine or its private
 * network (localhost, 127.0.0.1, 10.x, 192.168.x, fc00::/7, ...), in the
 * arguments and settings of a `hosted` tool, which runs elsewhere and cannot
 * reach them.
 */

const HOST_PATTERN = /\[([0-9a-f:.]+)\]|\b((?:\d{1,3}\.){3}\d{1,3})\b|\b([a-z0-9-]+\.)*(localhost)\b/gi;

/** Whether an IP address (v4 or v6) is loopback, private, link-local or unspecified. */
export function isPrivateAddress(address: string): boolean {
  if (net.isIPv4(address)) {
    const [a = 0, b = 0] = address.split(".").map(Number);
    return a === 127 || a === 10 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
  }
  if (net.isIPv6(address)) {
    const lower = address.toLowerCase();
    if (lower === "::1" || lower === "::") return true;
    if (lower.startsWith("::ffff:")) return isPrivateAddress(lower.slice(7));
    return /^f[cd][0-9a-f]{2}:/.test(lower) || /^fe[89ab][0-9a-f]:/.test(lower);
  }
  return false;
}

/** The first local or private host named in `text` (`localhost`, `10.0.0.5`, `[::1]`), or null. */
export function localAddressIn(text: string): string | null {
  for (const match of text.matchAll(HOST_PATTERN)) {
    const [whole, ipv6, ipv4, , localhost] = match;
    if (localhost) return whole.toLowerCase();
    if (ipv4 && isPrivateAddress(ipv4)) return ipv4;
    if (ipv6 && isPrivateAddress(ipv6)) return `[${ipv6}]`;
  }
  return null;
}

/** Every string in a JSON-like value with where it sits (`settings.url`, `arguments.hosts.0`). */
export function* stringsIn(value: unknown, at: string): Generator<[string, string]> {
  if (typeof value === "string") yield [at, value];
  else if (Array.isArray(value)) for (const [index, item] of value.entries()) yield* stringsIn(item, `${at}.${index}`);
  else if (value !== null && typeof value === "object") for (const [key, item] of Object.entries(value)) yield* stringsIn(item, `${at}.${key}`);
}
