import { isIP } from "node:net";
import type { LocalRange } from "./local-range";

export { LOCAL_RANGE_WORDS, type LocalRange } from "./local-range";


/** The range `address` is in, or null when it is a public address (or no IP address at all). */
export function localRangeOf(address: string): LocalRange | null {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const version = isIP(bare);
  if (version === 4) return ipv4Range(bare);
  if (version === 6) return ipv6Range(bare.toLowerCase());
  return null;
}

function ipv4Range(address: string): LocalRange | null {
  const [a, b] = address.split(".").map(Number) as [number, number, number, number];
  if (address === "169.254.169.254" || address === "100.100.100.200") return "metadata";
  if (a === 127) return "loopback";
  if (a === 0) return "unspecified";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "private";
  // Shared address space (carrier-grade NAT) and benchmarking nets are not the public internet either.
  if ((a === 100 && b >= 64 && b <= 127) || (a === 198 && (b === 18 || b === 19))) return "private";
  if (a === 169 && b === 254) return "link-local";
  return null;
}

function ipv6Range(address: string): LocalRange | null {
  const groups = expandIpv6(address);
  if (groups === null) return null;
  // An IPv4 address inside IPv6 (::ffff:10.0.0.1, ::10.0.0.1 and their hex spellings) leads where the IPv4 one does.
  const embedded = groups.slice(0, 5).every((group) => group === 0) && (groups[5] === 0xffff || groups[5] === 0);
  if (embedded && (groups[6] !== 0 || groups[7]! > 1)) {
    return ipv4Range([groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join("."));
  }
  if (groups.every((group, index) => group === (index === 7 ? 1 : 0))) return "loopback";
  if (groups.every((group) => group === 0)) return "unspecified";
  if (groups[0] === 0xfd00 && groups[1] === 0x0ec2 && groups.slice(2, 7).every((group) => group === 0) && groups[7] === 0x254) return "metadata";
  if ((groups[0]! & 0xfe00) === 0xfc00) return "private";
  if ((groups[0]! & 0xffc0) === 0xfe80) return "link-local";
  return null;
}

/** The eight 16-bit groups of an IPv6 address, an embedded dotted IPv4 tail included; null if it is not one. */
function expandIpv6(address: string): number[] | null {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const headGroups = head === "" ? [] : head.split(":");
  const tailGroups = tail === undefined || tail === "" ? [] : tail.split(":");
  const missing = 8 - headGroups.length - tailGroups.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...tailGroups].map((group) => parseInt(group, 16));
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}
