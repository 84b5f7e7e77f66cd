import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stdioCommandText, StdioServerConfigSchema } from "@/lib/validations/mcp-server";
import type { ApiClient, Json } from "./api-client";
import { chain, removeWorkFolders, shellNode, workFolder } from "./fixtures";
import { cookieOf, rawRequest, type RawResponse } from "./raw-http";
import { everyCredentialedRoute, everyPage, everyRoute, everySignedInPage, plausibleBody } from "./routes";
import { testRunFolder, testRunMarker } from "../support/test-run";
import { freePort, REPO_ROOT, startCommand, setupStudioServer } from "./studio-server";

/**
 * The door, tried as an attacker's web page would against a studio started
 * the README's way (no password, no STUDIO_TOKEN): by DNS rebinding (a foreign
 * Host and Origin), by a cross-site request carrying a signed-in person's
 * cookie, by guessing the token, by bringing a workflow file. A marker file
 * shows whether any command ran.
 */

const server = setupStudioServer({ tokenFile: true });
let api: ApiClient;
let sandbox: string;
const ATTACKER = () => `attacker.example:${server.port}`;

beforeAll(() => {
  api = server.client();
  sandbox = workFolder("studio-door-");
});

afterAll(() => {
  removeWorkFolders();
});

const marker = (name = "marker") => path.join(sandbox, name);

/** The stdio server configuration of the advisories: a "server" that is just a command. */
function touchServer(name: string, file = marker()) {
  return { name, transport: "stdio" as const, command: "sh", args: ["-c", `touch '${file}'`], enabled: true };
}

function bypassWorkflow(file = marker()) {
  return {
    name: "Rebinding payload",
    mode: "bypass",
    guardrails: { shellPolicy: "open" },
    nodes: [{ id: "in", kind: "input" }, shellNode("shell", sandbox, `touch '${file}'`), { id: "out", kind: "output", value: "{{ nodes.shell.output }}" }],
    edges: chain("in", "shell", "out"),
  };
}

async function signInWithLink(): Promise<string> {
  const link = /http:\/\/127\.0\.0\.1:\d+\/login\?token=[A-Za-z0-9_-]+/.exec(server.logs())?.[0];
  if (!link) throw new Error(`The studio printed no sign-in link:\n${server.logs()}`);
  const response = await rawRequest(link);
  const cookie = cookieOf(response, "studio_session");
  if (response.status !== 303 || !cookie) throw new Error(`The sign-in link answered ${response.status}: ${response.text}`);
  return cookie;
}

/** Makes the session's last proof of identity ten minutes old, as if the person signed in and walked away. */
async function ageSessions(): Promise<void> {
  const database = server.openDatabase();
  try {
    await database.studioSession.updateMany({ data: { authenticatedAt: new Date(Date.now() - 10 * 60_000) } });
  } finally {
    await database.$disconnect();
  }
}

function ownOrigin(cookie: string): Record<string, string> {
  return { cookie, origin: server.url, "sec-fetch-site": "same-origin" };
}

function bodyOf(response: RawResponse): Json {
  return JSON.parse(response.text);
}

describe("the default start (no password, no STUDIO_TOKEN)", () => {
  it("keeps its token in a 0600 file and prints a sign-in link that signs a browser in and drops the token from the address", async () => {
    const tokenFile = path.join(server.dataDir, "access-token");
    expect((await import("node:fs")).statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(server.logs()).toContain(`http://127.0.0.1:${server.port}/login?token=${server.token}`);

    const link = await rawRequest(`${server.url}/login?token=${server.token}&next=${encodeURIComponent("/inbox")}`);
    expect(link.status).toBe(303);
    expect(link.headers.location).toBe("/inbox");
    const setCookie = String(link.headers["set-cookie"]);
    expect(setCookie).toMatch(/studio_session=[^;]+; Path=\/; HttpOnly; SameSite=Strict/);
    expect(setCookie).not.toContain(server.token);
    const cookie = cookieOf(link, "studio_session")!;
    expect((await rawRequest(`${server.url}/api/workflows`, { headers: { cookie } })).status).toBe(200);
    expect((await rawRequest(`${server.url}/inbox`, { headers: { cookie } })).status).toBe(200);
    // The printed link names no page: it opens the workflows, not the tool catalogue.
    expect((await rawRequest(`${server.url}/login?token=${server.token}`)).headers.location).toBe("/workflows");

    const wrong = await rawRequest(`${server.url}/login?token=not-the-token-at-all-000000`);
    expect(wrong.status).toBe(303);
    expect(wrong.headers.location).toBe("/login?problem=link");
    expect(wrong.headers["set-cookie"]).toBeUndefined();
  });

  it("answers every API route with 401 and every page with the sign-in page when no credential is sent", async () => {
    const routes = everyCredentialedRoute();
    expect(routes.length).toBeGreaterThan(20);
    for (const [method, url] of routes) {
      const response = await rawRequest(`${server.url}${url}`, { method, body: plausibleBody(method) });
      expect(response.status, `${method} ${url}`).toBe(401);
      expect(bodyOf(response).error, `${method} ${url}`).toMatch(url === "/api/mcp" ? /MCP token/ : /Sign in first/);
    }
    const pages = everySignedInPage();
    expect(pages.length).toBeGreaterThan(6);
    for (const page of pages) {
      const response = await rawRequest(`${server.url}${page}`);
      expect(response.status, page).toBe(307);
      expect(new URL(response.headers.location!, server.url).pathname, page).toBe("/login");
    }
    const login = await rawRequest(`${server.url}/login`);
    expect(login.status).toBe(200);
    expect(login.text).toContain("access token");
  });

  it("refuses the DNS-rebinding request shape on every route, page and asset, with or without the token, and runs nothing", async () => {
    const before = await api.counts();
    const rebound = (extra: Record<string, string> = {}) => ({ host: ATTACKER(), origin: `http://${ATTACKER()}`, ...extra });
    for (const [method, url] of everyRoute()) {
      for (const headers of [rebound(), rebound({ authorization: `Bearer ${server.token}` })]) {
        const response = await rawRequest(`${server.url}${url}`, { method, headers, body: plausibleBody(method) });
        expect(response.status, `${method} ${url}`).toBe(403);
        expect(bodyOf(response).error, `${method} ${url}`).toMatch(/STUDIO_ALLOWED_HOSTS/);
      }
    }
    for (const page of [...everyPage(), "/icon.svg", "/api/runs/x/events", "/api/events"]) {
      const response = await rawRequest(`${server.url}${page}`, { headers: rebound({ authorization: `Bearer ${server.token}` }) });
      expect(response.status, page).toBe(403);
    }
    // The two payloads of the report, sent with the token a page could not know, still refused at the door.
    const mcp = await rawRequest(`${server.url}/api/mcp-servers`, { method: "POST", headers: rebound({ authorization: `Bearer ${server.token}` }), body: touchServer("x") });
    expect(mcp.status).toBe(403);
    const workflow = await rawRequest(`${server.url}/api/workflows`, { method: "POST", headers: rebound(), body: bypassWorkflow() });
    expect(workflow.status).toBe(403);

    expect(existsSync(marker())).toBe(false);
    expect(await api.counts()).toEqual(before);
    expect((await api.expect(200, "GET", "/api/mcp-servers")).servers).toEqual([]);
  });

  it("refuses a signed-in person's cookie on every state-changing route when another site sends it; the studio's own page may", async () => {
    const cookie = await signInWithLink();
    const before = await api.counts();
    const changing = everyRoute().filter(([method]) => method !== "GET");
    expect(changing.length).toBeGreaterThan(12);
    const shapes: [string, Record<string, string>][] = [
      ["a foreign Origin", { cookie, origin: `http://${ATTACKER()}` }],
      ["another port of this machine", { cookie, origin: "http://127.0.0.1:1" }],
      ["an opaque Origin", { cookie, origin: "null" }],
      ["Sec-Fetch-Site: cross-site", { cookie, "sec-fetch-site": "cross-site" }],
      ["Sec-Fetch-Site: same-site", { cookie, "sec-fetch-site": "same-site" }],
      ["a foreign Host", { cookie, host: ATTACKER(), origin: `http://${ATTACKER()}` }],
    ];
    for (const [method, url] of changing) {
      for (const [shape, headers] of shapes) {
        const response = await rawRequest(`${server.url}${url}`, { method, headers, body: plausibleBody(method) });
        expect(response.status, `${method} ${url} with ${shape}`).toBe(403);
      }
    }
    const withToken = await rawRequest(`${server.url}/api/workflows`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.token}`, origin: `http://${ATTACKER()}` },
      body: { name: "from a page", nodes: [] },
    });
    expect(withToken.status).toBe(403);
    expect(await api.counts()).toEqual(before);
    expect(existsSync(marker())).toBe(false);

    const own = await rawRequest(`${server.url}/api/workflows`, { method: "POST", headers: ownOrigin(cookie), body: { name: "from the studio", nodes: [] } });
    expect(own.status, own.text).toBe(201);
  });

  it("sends the security headers on pages and API answers, and no CORS allowance", async () => {
    const answers = [
      await rawRequest(`${server.url}/login`),
      await rawRequest(`${server.url}/inbox`),
      await rawRequest(`${server.url}/api/tools`, { headers: { authorization: `Bearer ${server.token}` } }),
      await rawRequest(`${server.url}/api/tools`),
      await rawRequest(`${server.url}/api/tools`, { headers: { host: ATTACKER() } }),
    ];
    for (const answer of answers) {
      expect(answer.headers["content-security-policy"]).toMatch(/frame-ancestors 'none'/);
      expect(answer.headers["content-security-policy"]).toMatch(/script-src 'self'/);
      expect(answer.headers["x-frame-options"]).toBe("DENY");
      expect(answer.headers["x-content-type-options"]).toBe("nosniff");
      expect(answer.headers["referrer-policy"]).toBe("same-origin");
      expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
    }
    const preflight = await rawRequest(`${server.url}/api/workflows`, {
      method: "OPTIONS",
      headers: { origin: `http://${ATTACKER()}`, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
    expect(preflight.headers["access-control-allow-methods"]).toBeUndefined();
  });

  it("treats a malformed cookie as no session, not as a server error", async () => {
    for (const cookie of ["studio_session=%E0%A4%A", "studio_session=", `studio_session=${"A".repeat(5000)}`, "studio_session"]) {
      expect((await rawRequest(`${server.url}/api/workflows`, { headers: { cookie } })).status, cookie.slice(0, 40)).toBe(401);
      expect((await rawRequest(`${server.url}/inbox`, { headers: { cookie } })).status, cookie.slice(0, 40)).toBe(307);
      expect((await rawRequest(`${server.url}/login`, { headers: { cookie } })).status, cookie.slice(0, 40)).toBe(200);
    }
  });

  it("ends the session on the server when the person signs out", async () => {
    const cookie = await signInWithLink();
    expect((await rawRequest(`${server.url}/api/workflows`, { headers: { cookie } })).status).toBe(200);
    const signedOut = await rawRequest(`${server.url}/api/auth/logout`, { method: "POST", headers: ownOrigin(cookie) });
    expect(signedOut.status).toBe(200);
    expect(String(signedOut.headers["set-cookie"])).toMatch(/Max-Age=0/);
    // A copy of the cookie kept elsewhere no longer works either.
    expect((await rawRequest(`${server.url}/api/workflows`, { headers: { cookie } })).status).toBe(401);
    expect((await rawRequest(`${server.url}/workflows`, { headers: { cookie } })).status).toBe(307);
  });
});

describe("privileged changes", () => {
  it("starts a stdio MCP server only after a recent sign-in and a confirmation of its exact command", async () => {
    const cookie = await signInWithLink();
    await ageSessions();
    const config = touchServer("touchy");
    const commandText = stdioCommandText(StdioServerConfigSchema.parse(config));

    const stale = await rawRequest(`${server.url}/api/mcp-servers`, { method: "POST", headers: ownOrigin(cookie), body: { ...config, confirmCommand: commandText } });
    expect(stale.status).toBe(403);
    expect(bodyOf(stale)).toMatchObject({ reauthenticate: true, error: expect.stringMatching(/confirm it is you/) });
    expect((await api.expect(200, "GET", "/api/mcp-servers")).servers).toEqual([]);

    const wrong = await rawRequest(`${server.url}/api/auth/confirm`, { method: "POST", headers: ownOrigin(cookie), body: { token: "wrong-token-wrong-token-00" } });
    expect(wrong.status).toBe(401);
    expect(bodyOf(wrong).issues[0].path).toBe("token");
    expect((await rawRequest(`${server.url}/api/auth/confirm`, { method: "POST", headers: ownOrigin(cookie), body: { token: server.token } })).status).toBe(200);

    // Saved without a confirmation: stored, shown as waiting, never started, not even by "Test".
    const unconfirmed = await rawRequest(`${server.url}/api/mcp-servers`, { method: "POST", headers: ownOrigin(cookie), body: config });
    expect(unconfirmed.status, unconfirmed.text).toBe(201);
    const saved = bodyOf(unconfirmed).server;
    expect(saved).toMatchObject({ state: "unconfirmed", commandConfirmation: { confirmed: false }, error: expect.stringMatching(/confirm/) });
    expect((await rawRequest(`${server.url}/api/mcp-servers/${saved.id}/test`, { method: "POST", headers: ownOrigin(cookie) })).status).toBe(409);
    const otherText = await rawRequest(`${server.url}/api/mcp-servers/${saved.id}/confirm`, {
      method: "POST",
      headers: ownOrigin(cookie),
      body: { command: commandText.replace("touch", "echo") },
    });
    expect(otherText.status).toBe(409);
    expect(existsSync(marker())).toBe(false);

    const confirmed = await rawRequest(`${server.url}/api/mcp-servers/${saved.id}/confirm`, { method: "POST", headers: ownOrigin(cookie), body: { command: commandText } });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(bodyOf(confirmed).server.commandConfirmation).toMatchObject({ confirmed: true, confirmedBy: "local user" });
    // Only now the command ran (it is no MCP server, so the connection then fails).
    expect(existsSync(marker())).toBe(true);

    // Changing the command takes the confirmation away again.
    const changed = await rawRequest(`${server.url}/api/mcp-servers/${saved.id}`, { method: "PUT", headers: ownOrigin(cookie), body: touchServer("touchy", marker("changed")) });
    expect(changed.status, changed.text).toBe(200);
    expect(bodyOf(changed).server.state).toBe("unconfirmed");
    expect(existsSync(marker("changed"))).toBe(false);

    const audit = (await api.expect(200, "GET", "/api/audit")).entries;
    expect(audit.find((entry: Json) => entry.action === "mcp-command-confirmed")).toMatchObject({ actor: "local user", target: saved.id, detail: { command: "sh" } });
  });

  it("asks for a recent sign-in before a workflow may run commands without asking, and logs who chose it", async () => {
    const cookie = await signInWithLink();
    await ageSessions();
    const before = await api.counts();
    const refused = await rawRequest(`${server.url}/api/workflows`, { method: "POST", headers: ownOrigin(cookie), body: bypassWorkflow() });
    expect(refused.status).toBe(403);
    expect(bodyOf(refused).reauthenticate).toBe(true);
    const plain = await rawRequest(`${server.url}/api/workflows`, { method: "POST", headers: ownOrigin(cookie), body: { ...bypassWorkflow(), mode: "default", guardrails: {} } });
    expect(plain.status).toBe(201);
    const { id } = bodyOf(plain).workflow;
    const opened = await rawRequest(`${server.url}/api/workflows/${id}`, {
      method: "PUT",
      headers: ownOrigin(cookie),
      body: { ...bypassWorkflow(), mode: "default", guardrails: { shellPolicy: "open" } },
    });
    expect(opened.status).toBe(403);
    expect((await api.counts()).versions).toBe((before.versions ?? 0) + 1);

    expect((await rawRequest(`${server.url}/api/auth/confirm`, { method: "POST", headers: ownOrigin(cookie), body: { token: server.token } })).status).toBe(200);
    const chosen = await rawRequest(`${server.url}/api/workflows/${id}`, { method: "PUT", headers: ownOrigin(cookie), body: bypassWorkflow() });
    expect(chosen.status, chosen.text).toBe(200);
    // Keeping what the stored version already has is no new choice.
    await ageSessions();
    const kept = await rawRequest(`${server.url}/api/workflows/${id}`, { method: "PUT", headers: ownOrigin(cookie), body: { ...bypassWorkflow(), description: "edited" } });
    expect(kept.status, kept.text).toBe(200);

    const entries = (await api.expect(200, "GET", "/api/audit")).entries.filter((entry: Json) => entry.action === "workflow-privileged-settings");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor: "local user", target: id });
    expect(entries[0].detail.settings.map((setting: Json) => setting.path)).toEqual(["mode", "guardrails.shellPolicy"]);
  });

  it("imports a workflow in default mode, whatever it asked for, and its shell step waits for a person", async () => {
    const file = marker("imported");
    const imported = await api.expect(201, "POST", "/api/workflows/import", {
      ...bypassWorkflow(file),
      guardrails: { shellPolicy: "open", networkPolicy: "open", writeScope: ["**"] },
    });
    expect(imported.workflow.definition).toMatchObject({ mode: "default", guardrails: { shellPolicy: "gated", networkPolicy: "gated", writeScope: [] } });
    expect(imported.dropped.map((setting: Json) => setting.path)).toEqual(["mode", "guardrails.shellPolicy", "guardrails.networkPolicy", "guardrails.writeScope"]);
    expect(imported.dropped[0].description).toMatch(/without asking/);

    const run = await api.startRun(imported.workflow.id);
    const approval = await api.waitForApproval(run.id);
    expect(existsSync(file)).toBe(false);
    await api.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "deny" });
    expect((await api.waitForRun(run.id)).status).toBe("failed");
    expect(existsSync(file)).toBe(false);
  });
});

describe("guessing", () => {
  it("locks the guessing address out, not the owner's, whatever X-Forwarded-For says, and logs the attempts", async () => {
    const attempt = (token: string, localAddress: string, extra: Record<string, string> = {}) =>
      rawRequest(`${server.url}/api/auth/login`, { method: "POST", localAddress, headers: extra, body: { token } });
    for (let index = 1; index <= 5; index += 1) {
      const response = await attempt(`guess-number-${index}-guess-guess`, "127.0.0.2", { "x-forwarded-for": `203.0.113.${index}` });
      expect(response.status, `attempt ${index}`).toBe(401);
    }
    const sixth = await attempt("guess-number-6-guess-guess", "127.0.0.2", { "x-forwarded-for": "198.51.100.7" });
    expect(sixth.status).toBe(429);
    expect(bodyOf(sixth).error).toMatch(/try again in \d+ s/);
    const rightButLocked = await attempt(server.token, "127.0.0.2");
    expect(rightButLocked.status).toBe(429);
    expect(rightButLocked.headers["set-cookie"]).toBeUndefined();
    const viaLink = await rawRequest(`${server.url}/login?token=${server.token}`, { localAddress: "127.0.0.2" });
    expect(viaLink.headers.location).toBe("/login?problem=throttled");

    const owner = await attempt(server.token, "127.0.0.1");
    expect(owner.status).toBe(200);
    expect(cookieOf(owner, "studio_session")).not.toBeNull();
    expect(server.logs()).toMatch(/sign-in failed from 127\.0\.0\.2 \(token, 5 in a row\)/);
    const failures = (await api.expect(200, "GET", "/api/audit")).entries.filter((entry: Json) => entry.action === "sign-in-failed" && entry.clientAddress === "127.0.0.2");
    expect(failures.length).toBeGreaterThanOrEqual(5);
  });
});

describe("how it listens", () => {
  it("refuses an address other machines can reach unless a password is set, saying why", async () => {
    const dataDir = testRunFolder("door-bind");
    try {
      const [command, ...args] = startCommand();
      const child = spawn(command!, args, {
        cwd: REPO_ROOT,
        env: { ...process.env, HOST: "0.0.0.0", PORT: String(await freePort()), STUDIO_DATA_DIR: dataDir, STUDIO_PASSWORD: "", ...testRunMarker() },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.setEncoding("utf8").on("data", (text: string) => (output += text));
      child.stderr.setEncoding("utf8").on("data", (text: string) => (output += text));
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      expect(code).toBe(1);
      expect(output).toMatch(/HOST=0\.0\.0\.0 lets other machines reach the studio/);
      expect(output).toMatch(/STUDIO_PASSWORD/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
