import { describe, expect, it } from "vitest";
import { crossSiteReason, ownOrigins } from "./origin-policy";

const OWN = ["http://127.0.0.1:3000"];
const request = (method: string, headers: Record<string, string> = {}) => new Request("http://127.0.0.1:3000/api/workflows", { method, headers });

describe("crossSiteReason", () => {
  it("lets reads through whoever asks; a cross-site read cannot see the answer", () => {
    expect(crossSiteReason(request("GET", { origin: "http://attacker.example", "sec-fetch-site": "cross-site" }), OWN)).toBeNull();
  });

  it("refuses changes from another origin, another port, an opaque origin, or a cross-site or same-site fetch", () => {
    for (const headers of <Record<string, string>[]>[
      { origin: "http://attacker.example" },
      { origin: "http://127.0.0.1:8080" },
      { origin: "null" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site", origin: "http://127.0.0.1:3000" },
    ]) {
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) expect(crossSiteReason(request(method, headers), OWN), `${method} ${JSON.stringify(headers)}`).not.toBeNull();
    }
  });

  it("lets the studio's own pages and clients that send no Origin (scripts) change things", () => {
    expect(crossSiteReason(request("POST", { origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" }), OWN)).toBeNull();
    expect(crossSiteReason(request("POST", { origin: "HTTP://127.0.0.1:3000" }), OWN)).toBeNull();
    expect(crossSiteReason(request("DELETE"), OWN)).toBeNull();
    expect(crossSiteReason(request("POST", { "sec-fetch-site": "none" }), OWN)).toBeNull();
  });
});

describe("ownOrigins", () => {
  it("is the scheme and Host of the request, plus STUDIO_PUBLIC_URL's origin", () => {
    const behindProxy = new Request("http://127.0.0.1:3000/x", { headers: { host: "localhost:3000" } });
    expect(ownOrigins(behindProxy, "https://studio.example.com/")).toEqual(["http://localhost:3000", "https://studio.example.com"]);
  });
});
