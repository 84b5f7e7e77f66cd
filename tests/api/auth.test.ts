import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "./api-client";
import { removeWorkFolders, workFolder, writeFileWorkflow } from "./fixtures";
import { connectEventStream } from "./sse-client";
import { REPO_ROOT, startStudioServer, type StudioServer } from "./studio-server";

/** With STUDIO_PASSWORD set, every page, route and event stream needs a session. */

const PASSWORD = "correct horse battery staple";

let server: StudioServer;
let anonymous: ApiClient;

beforeAll(async () => {
  server = await startStudioServer({ env: { STUDIO_PASSWORD: PASSWORD } });
  anonymous = new ApiClient(server.url);
}, 600_000);

afterAll(async () => {
  await server?.stop();
  removeWorkFolders();
});

/** Every route under app/api with the methods it exports, e.g. ["POST", "/api/workflows/x/runs"]. */
function everyRoute(folder = path.join(REPO_ROOT, "app/api")): [string, string][] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry): [string, string][] => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return everyRoute(file);
    if (entry.name !== "route.ts") return [];
    const url = `/${path.relative(path.join(REPO_ROOT, "app"), folder).split(path.sep).join("/")}`.replace(/\[[^\]]+\]/g, "x");
    return [...readFileSync(file, "utf8").matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map((match) => [match[1]!, url]);
  });
}

async function signIn(name: string, password = PASSWORD) {
  return anonymous.post("/api/auth/login", { name, password });
}

describe("with STUDIO_PASSWORD set", () => {
  it("answers every API route, the event streams included, with 401 without a session", async () => {
    const routes = everyRoute().filter(([, url]) => !url.startsWith("/api/auth/"));
    expect(routes.length).toBeGreaterThan(15);
    for (const [method, url] of routes) {
      const body = method === "GET" || method === "DELETE" ? undefined : { name: "x", nodes: [], decision: "once", value: "v" };
      const response = await anonymous.request(method, url, body);
      expect(response.status, `${method} ${url}`).toBe(401);
      // MCP clients authenticate with the MCP token, not a session (tests/api/mcp.test.ts).
      expect(response.body.error, `${method} ${url}`).toMatch(url === "/api/mcp" ? /MCP token/ : /Sign in/);
    }
    const stream = await connectEventStream(`${server.url}/api/events`);
    expect(stream.status).toBe(401);
    stream.close();
    const forged = new ApiClient(server.url, "studio_session=eyJuYW1lIjoiRXZlIiwiZXhwaXJlc0F0Ijo5OTk5OTk5OTk5OTk5fQ.forged");
    expect((await forged.get("/api/workflows")).status).toBe(401);
  });

  it("redirects pages to /login, which itself is open", async () => {
    const home = await anonymous.get("/");
    expect([302, 303, 307, 308]).toContain(home.status);
    const location = new URL(home.headers.get("location")!, server.url);
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("next")).toBe("/");
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
    const ada = new ApiClient(server.url, cookieHeader.split(";")[0]!);

    expect((await ada.get("/api/tools")).status).toBe(200);
    expect((await ada.get("/")).status).toBe(200);
    const root = workFolder();
    const { id } = await ada.createWorkflow(writeFileWorkflow(root));
    const run = await ada.startRun(id, { text: "signed" });
    const approval = await ada.waitForApproval(run.id);
    const stream = await connectEventStream(`${server.url}/api/runs/${run.id}/events`, { cookie: ada.cookie });
    expect(stream.status).toBe(200);
    stream.close();

    const decided = await ada.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "once" });
    expect(decided.approval).toMatchObject({ decidedBy: "Ada Lovelace", decidedAt: expect.any(String) });
    expect((await ada.waitForRun(run.id)).status).toBe("succeeded");
    const events = await ada.events(run.id);
    expect(events.find((event) => event.type === "approval-decided")?.payload.approval.decidedBy).toBe("Ada Lovelace");

    const signedOut = await ada.post("/api/auth/logout");
    expect(signedOut.headers.get("set-cookie")).toMatch(/Max-Age=0/);
  });

  it("answers 429 after five wrong passwords, whatever X-Forwarded-For says, even to the right one", async () => {
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      // A client chooses its own X-Forwarded-For: rotating it must not buy more guesses.
      const response = await anonymous.post("/api/auth/login", { name: "Mallory", password: `guess ${attempt}` }, { headers: { "x-forwarded-for": `203.0.113.${attempt}` } });
      expect(response.status, `attempt ${attempt}`).toBe(401);
    }
    const sixth = await anonymous.post("/api/auth/login", { name: "Mallory", password: "guess 6" }, { headers: { "x-forwarded-for": "198.51.100.7" } });
    expect(sixth.status).toBe(429);
    expect(sixth.body.error).toMatch(/try again in \d+ s/);
    const right = await signIn("Ada Lovelace");
    expect(right.status).toBe(429);
    expect(right.headers.get("set-cookie")).toBeNull();
  });
});

describe("network exposure", () => {
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
