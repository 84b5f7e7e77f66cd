import { describe, expect, it } from "vitest";
import { refuseDelivery, signDelivery, type AuthenticationSettings } from "./authentication";
import { RateLimiter } from "./rate-limit";
import { captureRequest, parseBody } from "./request";

const body = new TextEncoder().encode('{"action":"opened"}');
const SECRET = "shared-signing-secret";
const base: AuthenticationSettings = { authentication: "hmac-sha256", header: "X-Hub-Signature-256", prefix: "sha256=", signatureStyle: "body", toleranceSeconds: 300 };

describe("refuseDelivery", () => {
  it("accepts GitHub's body signature and refuses a changed body, another key or a missing header", () => {
    const signature = signDelivery(base, SECRET, '{"action":"opened"}');
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(refuseDelivery(base, { "x-hub-signature-256": signature }, body, SECRET)).toBeNull();
    expect(refuseDelivery(base, { "x-hub-signature-256": signature.toUpperCase().replace("SHA256=", "sha256=") }, body, SECRET)).toBeNull();
    expect(refuseDelivery(base, { "x-hub-signature-256": signature }, new TextEncoder().encode('{"action":"closed"}'), SECRET)).toMatch(/does not match/);
    expect(refuseDelivery(base, { "x-hub-signature-256": signature }, body, "another")).toMatch(/does not match/);
    expect(refuseDelivery(base, {}, body, SECRET)).toMatch(/missing/);
  });

  it("accepts a timestamped signature within the window and refuses a replay outside it", () => {
    const settings: AuthenticationSettings = { ...base, header: "Stripe-Signature", prefix: "", signatureStyle: "timestamped", toleranceSeconds: 300 };
    const now = 1_800_000_000;
    const header = signDelivery(settings, SECRET, '{"action":"opened"}', now);
    expect(header).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/);
    expect(refuseDelivery(settings, { "stripe-signature": header }, body, SECRET, now * 1000 + 299_000)).toBeNull();
    expect(refuseDelivery(settings, { "stripe-signature": header }, body, SECRET, now * 1000 + 301_000)).toMatch(/300 s/);
    // Stripe sends several v1 signatures while a secret is being rolled: any one may match.
    const rolled = `${header.replace(/v1=/, "v1=" + "0".repeat(64) + ",v1=")}`;
    expect(refuseDelivery(settings, { "stripe-signature": rolled }, body, SECRET, now * 1000)).toBeNull();
    expect(refuseDelivery(settings, { "stripe-signature": "v1=abc" }, body, SECRET, now * 1000)).toMatch(/t=<unix seconds>/);
  });

  it("checks a header token with its prefix; none lets anything through; unset refuses", () => {
    const token: AuthenticationSettings = { ...base, authentication: "header-token", header: "Authorization", prefix: "Bearer " };
    expect(refuseDelivery(token, { authorization: "Bearer s3cret" }, body, "s3cret")).toBeNull();
    expect(refuseDelivery(token, { authorization: "s3cret" }, body, "s3cret")).toMatch(/expected token/);
    expect(refuseDelivery(token, { authorization: "Bearer s3cret-and-more" }, body, "s3cret")).toMatch(/expected token/);
    expect(refuseDelivery({ ...token, authentication: "none" }, {}, body, "")).toBeNull();
    expect(refuseDelivery({ ...token, authentication: "unset" }, {}, body, "")).toMatch(/no authentication/);
  });
});

describe("delivery bodies and headers", () => {
  it("reads JSON, forms and text, and refuses broken JSON and other types", () => {
    const encode = (text: string) => new TextEncoder().encode(text);
    expect(parseBody("application/json; charset=utf-8", encode('{"a":1}'))).toEqual({ body: { a: 1 } });
    expect(parseBody("application/vnd.github+json", encode("[1]"))).toEqual({ body: [1] });
    expect(parseBody("application/x-www-form-urlencoded", encode("a=1&b=2&a=3"))).toEqual({ body: { a: ["1", "3"], b: "2" } });
    expect(parseBody("text/plain", encode("hello"))).toEqual({ body: "hello" });
    expect(parseBody(undefined, encode("not json"))).toEqual({ body: "not json" });
    expect(parseBody("application/json", encode("{"))).toMatchObject({ status: 400 });
    expect(parseBody("application/octet-stream", encode("x"))).toMatchObject({ status: 415 });
    expect(parseBody("application/json", new Uint8Array())).toEqual({ body: null });
  });

  it("refuses a body nested too deep to walk, before anything reads it (it was a 500)", () => {
    const encode = (text: string) => new TextEncoder().encode(text);
    const deep = "[".repeat(400_000) + "]".repeat(400_000);
    expect(parseBody("application/json", encode(deep))).toEqual({ status: 422, problem: "The body nests deeper than 100 levels; flatten it." });
    expect(parseBody("application/json", encode(`${"[".repeat(99)}1${"]".repeat(99)}`))).toHaveProperty("body");
  });

  it("reads a form that repeats one name 200,000 times in one pass (a copy per repeat held the studio for minutes)", () => {
    const form = new TextEncoder().encode(Array.from({ length: 200_000 }, (_, index) => `f=${index}`).join("&"));
    const parsed = parseBody("application/x-www-form-urlencoded", form) as { body: { f: string[] } };
    expect(parsed.body.f).toHaveLength(200_000);
    expect(parsed.body.f.at(-1)).toBe("199999");
    expect(parseBody("application/x-www-form-urlencoded", new TextEncoder().encode("__proto__=kept&a=1"))).toEqual({ body: { ["__proto__"]: "kept", a: "1" } });
  });

  it("keeps only the asked-for headers, never the credential's or cookies", () => {
    const request = { method: "POST", path: "p", query: new URLSearchParams("q=1"), headers: { "x-event": "push", authorization: "Bearer t", cookie: "c=1", "x-sig": "s" }, readBody: async () => new Uint8Array() };
    expect(captureRequest(request, null, ["X-Event", "authorization", "cookie", "x-sig"], "X-Sig")).toEqual({ method: "POST", path: "p", query: { q: "1" }, headers: { "x-event": "push" }, body: null });
  });
});

describe("RateLimiter", () => {
  it("lets a minute's worth through, then refills over time", () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    expect([1, 2, 3, 4].map(() => limiter.take("hook", 3))).toEqual([true, true, true, false]);
    expect(limiter.retryAfterSeconds("hook", 3)).toBe(20);
    now += 20_000;
    expect(limiter.take("hook", 3)).toBe(true);
    expect(limiter.take("other", 3)).toBe(true);
    expect(limiter.take("unlimited", 0)).toBe(true);
  });
});
