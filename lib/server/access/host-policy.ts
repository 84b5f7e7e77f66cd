import { isIP } from "node:net";
import type { Environment } from "@/lib/env";

/**
 * Which `Host` headers the studio answers. A web page that rebinds its own
 * host name to 127.0.0.1 makes the browser send same-origin requests to the
 * studio with `Host: attacker.example:3000`; refusing every name but the
 * studio's own closes that door (the fix of CVE-2025-49596, Vite's
 * `server.allowedHosts`). Served: the loopback names (any port, so an SSH
 * tunnel or port forward still works: a browser only sends such a Host to a
 * server it reached by that name), the host of STUDIO_PUBLIC_URL, the names in
 * STUDIO_ALLOWED_HOSTS, and, when HOST binds a non-loopback address, that
 * address as an IP literal (any IP literal when it binds every interface). An
 * IP literal cannot be rebound: a page only sends it to the server at that IP.
 */
export interface HostPolicy {
  allows(hostHeader: string | null): boolean;
}

export interface ParsedHost {
  /** Lower-case; IPv6 without brackets. */
  name: string;
  port: string | null;
}

const LOOPBACK_NAMES = new Set(["localhost", "::1"]);

export function parseHostHeader(value: string): ParsedHost | null {
  const text = value.trim().toLowerCase();
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/.exec(text);
  if (bracketed) return isIP(bracketed[1]!) === 6 ? { name: bracketed[1]!, port: bracketed[2] ?? null } : null;
  const plain = /^([a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(text);
  if (!plain) return null;
  return { name: plain[1]!.replace(/\.$/, ""), port: plain[2] ?? null };
}

export function isLoopbackName(name: string): boolean {
  return LOOPBACK_NAMES.has(name) || (isIP(name) === 4 && name.startsWith("127."));
}

/** Whether `address` (HOST) is a loopback address or name, i.e. only this machine can connect. */
export function isLoopbackAddress(address: string): boolean {
  const host = parseHostHeader(address.includes(":") && !address.startsWith("[") ? `[${address}]` : address);
  return host !== null && isLoopbackName(host.name);
}

export function hostPolicy(environment: Pick<Environment, "HOST" | "STUDIO_PUBLIC_URL" | "STUDIO_ALLOWED_HOSTS">): HostPolicy {
  const configured: ParsedHost[] = environment.STUDIO_ALLOWED_HOSTS.map((entry) => parseHostHeader(entry)).filter((host) => host !== null);
  if (environment.STUDIO_PUBLIC_URL) {
    const url = new URL(environment.STUDIO_PUBLIC_URL);
    const publicHost = parseHostHeader(url.host);
    if (publicHost) configured.push(publicHost);
  }
  const bind = environment.HOST.replace(/^\[|\]$/g, "").toLowerCase();
  const bindsEverything = bind === "0.0.0.0" || bind === "::";
  return {
    allows(hostHeader) {
      if (!hostHeader) return false;
      const host = parseHostHeader(hostHeader);
      if (!host) return false;
      if (isLoopbackName(host.name)) return true;
      if (configured.some((entry) => entry.name === host.name && (entry.port === null || entry.port === host.port))) return true;
      if (isIP(host.name) !== 0) return bindsEverything || host.name === bind;
      return false;
    },
  };
}

/** What a refused request is told: which name was refused and which variable would allow it. */
export function refusedHostMessage(hostHeader: string | null): string {
  const shown = (hostHeader ?? "").replace(/[^\x20-\x7e]/g, "?").slice(0, 200);
  return hostHeader
    ? `This studio does not answer to the host name "${shown}". If you meant to open it under that name, add it to STUDIO_ALLOWED_HOSTS (or set STUDIO_PUBLIC_URL) and restart the studio.`
    : "The request has no Host header; the studio answers only requests addressed to it by name.";
}
