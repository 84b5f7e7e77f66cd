import { readEnvironment, type Environment } from "@/lib/env";
import { hostPolicy, refusedHostMessage, type HostPolicy } from "./host-policy";
import { crossSiteReason, ownOrigins } from "./origin-policy";

/**
 * The first check on every request, before any credential is looked at:
 * is it addressed to this studio by one of its names, and, when it changes
 * something, does it come from the studio's own pages? Both refusals are 403
 * and name what to change. proxy.ts runs this for every page, route, stream
 * and asset; route handlers run it again (lib/server/http.ts).
 */

interface Policies {
  environment: Environment;
  hosts: HostPolicy;
}

let cached: Policies | null = null;

function policies(): Policies {
  // The environment is fixed for the life of the process; parsing it per request would cost more than the check.
  cached ??= (() => {
    const environment = readEnvironment();
    return { environment, hosts: hostPolicy(environment) };
  })();
  return cached;
}

export interface Refusal {
  status: 403;
  message: string;
}

/** Whether `host` (the Host header) names this studio; the refusal otherwise. The first check of a webhook delivery too. */
export function hostRefusal(host: string | null): Refusal | null {
  return policies().hosts.allows(host) ? null : { status: 403, message: refusedHostMessage(host) };
}

export function addressingRefusal(request: Request): Refusal | null {
  const { environment, hosts } = policies();
  const host = request.headers.get("host");
  if (!hosts.allows(host)) return { status: 403, message: refusedHostMessage(host) };
  const crossSite = crossSiteReason(request, ownOrigins(request, environment.STUDIO_PUBLIC_URL));
  if (crossSite) return { status: 403, message: crossSite };
  return null;
}
