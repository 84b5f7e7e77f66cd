import type { ToolContext } from "../tool-context";
import { localRangeOf } from "./address-ranges";
import { isAllowListed, LOCAL_RANGE_WORDS } from "./local-range";
import { addressesOf, hostOf } from "./outbound";

/**
 * Where a request a page makes on its own would lead, decided once:
 * `addresses` are what the host resolved to (the only addresses it may then
 * be connected to), and `blocked` says in words why it may not be reached
 * (this machine or its network, not allow-listed), or is null when it may.
 * Such requests are blocked rather than asked about one by one.
 * `unresolved`: the host has no address; the request fails by itself.
 */
export type PageRequestReach = { addresses: string[]; blocked: string | null } | { unresolved: string };

export async function pageRequestReach(url: URL, ctx: ToolContext): Promise<PageRequestReach> {
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = await addressesOf(host, ctx);
  } catch (error) {
    return { unresolved: `Could not find the address of ${host} (${(error as NodeJS.ErrnoException).code ?? "unknown"})` };
  }
  if (addresses.length === 0) return { unresolved: `Could not find the address of ${host}` };
  const { mode, guardrails } = ctx.permissions;
  if (guardrails.localNetworkPolicy === "open" || (mode === "bypass" && guardrails.localNetworkPolicy !== "denied")) {
    return { addresses, blocked: null };
  }
  for (const address of addresses) {
    const range = localRangeOf(address);
    if (range === null) continue;
    if (isAllowListed(url, host, address, guardrails.localNetworkAllow)) return { addresses, blocked: null };
    return { addresses, blocked: `${host} leads to ${address}, ${LOCAL_RANGE_WORDS[range]}` };
  }
  return { addresses, blocked: null };
}
