import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "./api-client";
import { removeWorkFolders, workFolder, writeFileWorkflow } from "./fixtures";
import { cookieOf, rawRequest } from "./raw-http";
import { everyCredentialedRoute, plausibleBody } from "./routes";
import { connectEventStream } from "./sse-client";
import { setupStudioServer } from "./studio-server";

/** With STUDIO_PASSWORD set: a password sign-in with a name, besides the token. */

const PASSWORD = "correct horse battery staple";

const server = setupStudioServer({ env: { STUDIO_PASSWORD: PASSWORD, STUDIO_ALLOWED_HOSTS: "studio.test, other.test:8443" } });
let anonymous: ApiClient;

beforeAll(() => {
  anonymous = new ApiClient(server.url);
});

afterAll(() => {
  removeWorkFolders();
});

async function signIn(name: string, password = PASSWORD) {
  return anonymous.post("/api/auth/login", { name, password });
}

describe("with STUDIO_PASSWORD set", () => {
  it("answers every API route, the event streams included, with 401 without a session", async () => {
    const routes = everyCredentialedRoute();
    expect(routes.length).toBeGreaterThan(15);
    for (const [method, url] of routes) {
      const response = await anonymous.request(method, url, plausibleBody(method));
      expect(response.status, `${method} ${url}`).toBe(401);
      // MCP clients authenticate with the MCP token, not a session (tests/api/mcp.test.ts).
      expect(response.body.error, `${method} ${url}`).toMatch(url === "/api/mcp" ? /MCP token/ : /Sign in/);
    }
    const stream = await connectEventStream(`${server.url}/api/events`);
    expect(stream.status).toBe(401);
    stream.close();
    // The old signed-cookie format, forged, and a guessed bearer token: neither is a credential.
    const forged = new ApiClient(server.url, { cookie: "studio_session=eyJuYW1lIjoiRXZlIiwiZXhwaXJlc0F0Ijo5OTk5OTk5OTk5OTk5fQ.forged" });
    expect((await forged.get("/api/workflows")).status).toBe(401);
    expect((await new ApiClient(server.url, { token: "guessed-guessed-guessed-guessed" }).get("/api/workflows")).status).toBe(401);
  });

  it("redirects pages to /login, which itself is open", async () => {
    const home = await anonymous.get("/");
    expect([302, 303, 307, 308]).toContain(home.status);
    const location = new URL(home.headers.get("location")!, server.url);
    expect(location.pathname).toBe("/login");
    // From the bare address, signing in opens the workflows (no `next` to go back to).
    expect(location.searchParams.has("next")).toBe(false);
    const deep = await anonymous.get("/workflows/abc?tab=runs");
    expect(new URL(deep.headers.get("location")!, server.url).searchParams.get("next")).toBe("/workflows/abc?tab=runs");
    expect((await anonymous.get("/login")).status).toBe(200);
  });

  it("signs in with the right password only, and records who decided", async () => {
    const wrong = await signIn("Mallory", "guess");
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("set-cookie")).toBeNull();
    expect((await anonymous.post("/api/auth/login", { password: PASSWORD })).status).toBe(422);

    const right = await signIn("Ada Lovelace");
    expect(right.status).toBe(200);
    const cookieHeader = right.headers.get("set-cookie")!;
    expect(cookieHeader).toMatch(/^studio_session=[^;]+;.*HttpOnly/);
    expect(cookieHeader).toMatch(/SameSite=Strict/);
    const ada = new ApiClient(server.url, { cookie: cookieHeader.split(";")[0]! });

    expect((await ada.get("/api/tools")).status).toBe(200);
    expect((await ada.get("/")).status).toBe(200);
    const root = workFolder();
    const { id } = await ada.createWorkflow(writeFileWorkflow(root));
    const run = await ada.startRun(id, { text: "signed" });
    const approval = await ada.waitForApproval(run.id);
    const stream = await connectEventStream(`${server.url}/api/runs/${run.id}/events`, ada.credential);
    expect(stream.status).toBe(200);
    stream.close();

    const decided = await ada.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "once" });
    // The studio's one password is the first owner's: the decision names them by id, under the name typed.
    expect(decided.approval).toMatchObject({ decidedBy: { personId: expect.any(String), name: "Ada Lovelace" }, decidedAt: expect.any(String) });
    expect((await ada.waitForRun(run.id)).status).toBe("succeeded");
    const events = await ada.events(run.id);
    expect(events.find((event) => event.type === "approval-decided")?.payload.approval.decidedBy).toEqual(decided.approval.decidedBy);

    const signedOut = await ada.post("/api/auth/logout");
    expect(signedOut.headers.get("set-cookie")).toMatch(/Max-Age=0/);
  });

  it("signs in with the access token too, and the token works as a bearer credential for scripts", async () => {
    const withToken = await anonymous.post("/api/auth/login", { token: server.token });
    expect(withToken.status).toBe(200);
    expect(withToken.body.name).toBe("local user");
    expect((await server.client().get("/api/workflows")).status).toBe(200);
    const both = await anonymous.post("/api/auth/login", { token: server.token, password: PASSWORD, name: "x" });
    expect(both.status).toBe(422);
  });

  it("serves the host names in STUDIO_ALLOWED_HOSTS and no others", async () => {
    const headers = (host: string) => ({ host, authorization: `Bearer ${server.token}` });
    expect((await rawRequest(`${server.url}/api/tools`, { headers: headers(`studio.test:${server.port}`) })).status).toBe(200);
    expect((await rawRequest(`${server.url}/api/tools`, { headers: headers("studio.test") })).status).toBe(200);
    expect((await rawRequest(`${server.url}/api/tools`, { headers: headers("other.test:8443") })).status).toBe(200);
    expect((await rawRequest(`${server.url}/api/tools`, { headers: headers("other.test:9999") })).status).toBe(403);
    expect((await rawRequest(`${server.url}/api/tools`, { headers: headers("studio.test.attacker.example") })).status).toBe(403);
    expect((await rawRequest(`${server.url}/api/tools`, { headers: headers(`localhost:${server.port}`) })).status).toBe(200);
    expect((await rawRequest(`${server.url}/api/tools`, { headers: headers(`[::1]:${server.port}`) })).status).toBe(200);
    // An address other than loopback, while the studio binds loopback only: not its name.
    expect((await rawRequest(`${server.url}/api/tools`, { headers: headers(`10.0.0.5:${server.port}`) })).status).toBe(403);
  });

  it("answers 429 to the guessing address after five wrong passwords, even for the right one, while the owner signs in from elsewhere", async () => {
    const guess = (password: string, forwardedFor: string) =>
      rawRequest(`${server.url}/api/auth/login`, { method: "POST", localAddress: "127.0.0.3", headers: { "x-forwarded-for": forwardedFor }, body: { name: "Mallory", password } });
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      // A client chooses its own X-Forwarded-For: rotating it must not buy more guesses.
      expect((await guess(`guess ${attempt}`, `203.0.113.${attempt}`)).status, `attempt ${attempt}`).toBe(401);
    }
    const sixth = await guess("guess 6", "198.51.100.7");
    expect(sixth.status).toBe(429);
    expect(JSON.parse(sixth.text).error).toMatch(/try again in \d+ s/);
    const right = await guess(PASSWORD, "198.51.100.8");
    expect(right.status).toBe(429);
    expect(right.headers["set-cookie"]).toBeUndefined();
    const owner = await rawRequest(`${server.url}/api/auth/login`, { method: "POST", localAddress: "127.0.0.1", body: { name: "Ada Lovelace", password: PASSWORD } });
    expect(owner.status).toBe(200);
    expect(cookieOf(owner, "studio_session")).not.toBeNull();
  });
});

describe("network exposure", () => {
  it("keeps an idle connection open for a minute, so a pooled client never sends into a socket the server is closing", async () => {
    // Node's default is 5 s: a script pausing about that long between two requests on a pooled socket met ECONNRESET.
    const response = await rawRequest(`${server.url}/login`, { headers: { connection: "keep-alive" } });
    expect(response.status).toBe(200);
    const seconds = Number(/timeout=(\d+)/.exec(String(response.headers["keep-alive"]))?.[1]);
    expect(seconds).toBeGreaterThanOrEqual(60);
  });

  it("listens on 127.0.0.1 only, as the start script says", async () => {
    expect((await fetch(`${server.url}/login`)).status).toBe(200);
    const external = Object.values(os.networkInterfaces())
      .flat()
      .find((address) => address && address.family === "IPv4" && !address.internal);
    // Without a non-loopback IPv4 address there is no other interface to try the port on.
    if (!external) return;
    await expect(fetch(`http://${external.address}:${server.port}/login`, { signal: AbortSignal.timeout(5_000) })).rejects.toThrow();
  });
});
