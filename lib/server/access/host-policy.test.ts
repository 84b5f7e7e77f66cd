import { describe, expect, it } from "vitest";
import { hostPolicy, isLoopbackAddress, parseHostHeader } from "./host-policy";

const defaults = { HOST: "127.0.0.1", STUDIO_PUBLIC_URL: undefined, STUDIO_ALLOWED_HOSTS: [] as string[] };

describe("hostPolicy", () => {
  it("serves the loopback names on any port and nothing else by default", () => {
    const policy = hostPolicy(defaults);
    for (const host of ["127.0.0.1:3000", "localhost:3000", "LOCALHOST", "[::1]:3000", "127.0.0.2:8080", "localhost."]) expect(policy.allows(host), host).toBe(true);
    for (const host of ["attacker.example:3000", "localhost.attacker.example", "127.0.0.1.nip.io:3000", "10.0.0.5:3000", "0.0.0.0:3000", "", "a b", "[::2]:3000"]) {
      expect(policy.allows(host), host).toBe(false);
    }
    expect(policy.allows(null)).toBe(false);
  });

  it("adds STUDIO_ALLOWED_HOSTS (with or without a port) and STUDIO_PUBLIC_URL's host", () => {
    const policy = hostPolicy({ ...defaults, STUDIO_ALLOWED_HOSTS: ["studio.lan", "other.lan:8443"], STUDIO_PUBLIC_URL: "https://studio.example.com" });
    expect(policy.allows("studio.lan:3000")).toBe(true);
    expect(policy.allows("studio.lan")).toBe(true);
    expect(policy.allows("other.lan:8443")).toBe(true);
    expect(policy.allows("other.lan:3000")).toBe(false);
    expect(policy.allows("studio.example.com")).toBe(true);
    expect(policy.allows("studio.example.com.attacker.example")).toBe(false);
  });

  it("serves the bound address as an IP literal, and any IP literal when bound to every interface", () => {
    expect(hostPolicy({ ...defaults, HOST: "192.168.1.5" }).allows("192.168.1.5:3000")).toBe(true);
    expect(hostPolicy({ ...defaults, HOST: "192.168.1.5" }).allows("192.168.1.6:3000")).toBe(false);
    expect(hostPolicy({ ...defaults, HOST: "0.0.0.0" }).allows("10.1.2.3:3000")).toBe(true);
    // An IP literal cannot be rebound, a name can: names still need the allow-list.
    expect(hostPolicy({ ...defaults, HOST: "0.0.0.0" }).allows("attacker.example:3000")).toBe(false);
  });
});

describe("parseHostHeader and isLoopbackAddress", () => {
  it("splits names, IPv6 literals and ports", () => {
    expect(parseHostHeader("[::1]:3000")).toEqual({ name: "::1", port: "3000" });
    expect(parseHostHeader("Example.COM")).toEqual({ name: "example.com", port: null });
    expect(parseHostHeader("[not-ip]:1")).toBeNull();
    expect(parseHostHeader("user@host")).toBeNull();
  });

  it("knows loopback binds", () => {
    for (const address of ["127.0.0.1", "localhost", "::1", "[::1]", "127.1.2.3"]) expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of ["0.0.0.0", "::", "192.168.1.5", "example.com"]) expect(isLoopbackAddress(address), address).toBe(false);
  });
});
