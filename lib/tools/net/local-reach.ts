import type { ToolContext } from "../tool-context";
import { localRangeOf } from "./address-ranges";
import { isAllowListed, LOCAL_RANGE_WORDS } from "./local-range";
import { addressesOf, hostOf } from "./outbound";

/**
 * Where `url` would lead when that is this machine or its network, in words,
 * or null when it may be reached without asking: a public address, a host on
 * the workflow's `localNetworkAllow`, or a workflow whose policy (or bypass
 * mode) lets steps reach them. For requests a page makes on its own, which
 * are blocked rather than asked about one by one. An unresolvable host counts
 * as unreachable, not as local: the browser will fail on it by itself.
 */
export async function localReach(url: URL, ctx: ToolContext): Promise<string | null> {
  const { mode, guardrails } = ctx.permissions;
  if (guardrails.localNetworkPolicy === "open" || (mode === "bypass" && guardrails.localNetworkPolicy !== "denied")) return null;
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = await addressesOf(host, ctx);
  } catch {
    return null;
  }
  for (const address of addresses) {
    const range = localRangeOf(address);
    if (range === null) continue;
    if (isAllowListed(url, host, address, guardrails.localNetworkAllow)) return null;
    return `${host} leads to ${address}, ${LOCAL_RANGE_WORDS[range]}`;
  }
  return null;
}
