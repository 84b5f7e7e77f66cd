import { isIP, type LookupFunction } from "node:net";
import { Agent } from "undici";
import { checkPermission } from "../permissions/gate";
import type { ToolContext } from "../tool-context";
import { localRangeOf } from "./address-ranges";
import { LOCAL_RANGE_WORDS } from "./local-range";

/** What a checked request may connect to: the addresses its host led to when it was checked. */
export type OutboundCheck =
  | { allowed: true; addresses: string[] }
  /** `denied`: the gate said no (never retried); `network` / `not-found`: the host's address could not be found. */
  | { allowed: false; reason: string; kind: "denied" | "network" | "not-found" };

/** The request as the approval card shows it. */
export interface OutboundRequest {
  method: string;
  headers: { name: string; value: string }[];
  body: string | null;
}

/**
 * The outbound-address guardrail for one hop of a request: resolves the host
 * (through `ctx.resolveHost`), and when any address it leads to is this
 * machine, its private network, a link-local address or a metadata service,
 * asks the gate (which refuses, allows an allow-listed host, or asks a
 * person, saying where it leads). Nothing has connected yet; the caller then
 * connects only to the returned addresses (see pinnedDispatcher), so a host
 * whose DNS answer changes in between (rebinding) cannot slip through.
 */
export async function checkOutbound(url: URL, request: OutboundRequest, ctx: ToolContext): Promise<OutboundCheck> {
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = await addressesOf(host, ctx);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // EAI_AGAIN: the resolver could not answer right now, which a moment later it may.
    const kind = code === "EAI_AGAIN" ? "network" : "not-found";
    return { allowed: false, kind, reason: `Could not find the address of ${host}${code ? ` (${code})` : ""}; check the host name.` };
  }
  if (addresses.length === 0) return { allowed: false, kind: "not-found", reason: `Could not find the address of ${host}; check the host name.` };
  const local = addresses.map((address) => ({ address, range: localRangeOf(address) })).find((each) => each.range !== null);
  if (!local || local.range === null) return { allowed: true, addresses };
  const where = `${host} leads to ${local.address}, ${LOCAL_RANGE_WORDS[local.range]}`;
  const decision = await checkPermission(
    {
      kind: "network",
      method: request.method,
      url: url.href,
      reason: `Send an HTTP ${request.method} request that reaches this machine or its network: ${where}.`,
      preview: { kind: "request", method: request.method, url: url.href, headers: request.headers, body: request.body, reaches: where },
      local: { host, address: local.address, range: local.range },
    },
    ctx,
  );
  return decision.allowed ? { allowed: true, addresses } : { allowed: false, kind: "denied", reason: decision.reason };
}

/** A URL's host without the brackets of an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "");
}

/** The addresses `host` leads to: itself when it is an address, else what `ctx.resolveHost` answers (which may throw). */
export async function addressesOf(host: string, ctx: ToolContext): Promise<string[]> {
  return isIP(host) ? [host] : ctx.resolveHost(host);
}

/** A connection pool that reaches `addresses` only, whatever the host's DNS says by the time it connects. */
export function pinnedDispatcher(addresses: readonly string[]): Agent {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    const entries = addresses.map((address) => ({ address, family: isIP(address) }));
    const wanted = options.family === 4 || options.family === 6 ? entries.filter((entry) => entry.family === options.family) : entries;
    const usable = wanted.length > 0 ? wanted : entries;
    if (options.all) (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, usable);
    else callback(null, usable[0]!.address, usable[0]!.family);
  };
  return new Agent({ connect: { lookup } });
}
