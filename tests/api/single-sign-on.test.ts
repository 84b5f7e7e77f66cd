import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, type Json } from "./api-client";
import { invitePerson } from "./people-fixtures";
import { setupStudioServer } from "./studio-server";

/**
 * Single sign-on against a real OpenID Connect provider (the `oidc-provider`
 * package, on loopback, with its development login form): a person signs in
 * at the provider and arrives signed in at the studio with the role their
 * groups map to, again with the role their groups give now; someone in no
 * mapped group, a tampered or stale answer, and a deactivated person are
 * refused; an account with the same name is never taken over.
 */

interface Account {
  name: string;
  email: string;
  groups: string[];
}
const ACCOUNTS: Record<string, Account> = {
  ada: { name: "Ada Lovelace", email: "ada@example.com", groups: ["everyone", "studio-builders"] },
  bob: { name: "Bob", email: "bob@example.com", groups: ["everyone"] },
  carol: { name: "Carol at the provider", email: "carol@example.com", groups: ["studio-reviewers"] },
};

const CLIENT = { id: "neurosurfer-studio", secret: "a-client-secret-for-tests-only" };
let providerServer: Server;
let issuer: string;

// The provider listens first (the studio is told its address), and learns the studio's address once it runs.
beforeAll(async () => {
  providerServer = createServer();
  await new Promise<void>((resolve) => providerServer.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(providerServer.address() as AddressInfo).port}`;
});

const server = setupStudioServer(() => ({
  env: {
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: CLIENT.id,
    OIDC_CLIENT_SECRET: CLIENT.secret,
    OIDC_ROLE_MAP: "studio-admins=admin,studio-builders=editor,studio-reviewers=approver",
    OIDC_LABEL: "Team login",
  },
}));

beforeAll(() => {
  const provider = new Provider(issuer, {
    clients: [{ client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris: [`${server.url}/api/auth/oidc/callback`], grant_types: ["authorization_code"], response_types: ["code"] }],
    claims: { openid: ["sub"], profile: ["name", "preferred_username", "groups"], email: ["email"] },
    findAccount: async (_context, id) =>
      ACCOUNTS[id] ? { accountId: id, claims: async () => ({ sub: id, name: ACCOUNTS[id]!.name, preferred_username: id, email: ACCOUNTS[id]!.email, groups: ACCOUNTS[id]!.groups }) } : undefined,
    pkce: { required: () => true },
    cookies: { keys: ["cookie-key-for-tests-only"] },
  });
  providerServer.on("request", provider.callback());
});

afterAll(async () => {
  await new Promise<void>((resolve) => providerServer.close(() => resolve()));
});

/** Cookies by name, as one browser keeps them (tests send them to every path of the host they came from). */
class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  async get(url: string, form?: Record<string, string>): Promise<Response> {
    const { host } = new URL(url);
    const jar = this.jars.get(host) ?? new Map<string, string>();
    this.jars.set(host, jar);
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await fetch(url, {
      method: form ? "POST" : "GET",
      redirect: "manual",
      headers: { ...(cookie ? { cookie } : {}), ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      const [name, value] = [pair!.slice(0, at), pair!.slice(at + 1)];
      if (value === "" || /max-age=0/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  }

  cookie(host: string, name: string): string | undefined {
    return this.jars.get(host)?.get(name);
  }
}

/** Follows redirects from `url` until one leaves for `stopAt` (an address prefix), answering the provider's login and consent forms as `login`. */
async function follow(browser: Browser, url: string, login: string, stopAt: string): Promise<string> {
  let next = url;
  for (let hop = 0; hop < 20; hop += 1) {
    if (next.startsWith(stopAt)) return next;
    const response = await browser.get(next);
    if (response.status >= 300 && response.status < 400) {
      next = new URL(response.headers.get("location")!, next).href;
      continue;
    }
    const page = await response.text();
    expect(response.status, page.slice(0, 500)).toBe(200);
    const action = new URL(/action="([^"]+)"/.exec(page)![1]!, next).href;
    const prompt = /name="prompt" value="(\w+)"/.exec(page)![1]!;
    const answered = await browser.get(action, prompt === "login" ? { prompt, login, password: "any" } : { prompt });
    expect(answered.status).toBeGreaterThanOrEqual(300);
    next = new URL(answered.headers.get("location")!, action).href;
  }
  throw new Error(`no redirect to ${stopAt} after 20 hops`);
}

/** Signs `login` in through the provider; where the studio sent the browser at the end, and the browser. */
async function signInAs(login: string): Promise<{ landed: string; browser: Browser }> {
  const browser = new Browser();
  const callback = await follow(browser, `${server.url}/api/auth/oidc/start`, login, `${server.url}/api/auth/oidc/callback`);
  const answer = await browser.get(callback);
  expect(answer.status).toBe(303);
  return { landed: answer.headers.get("location")!, browser };
}

function sessionOf(browser: Browser): ApiClient {
  const session = browser.cookie(new URL(server.url).host, "studio_session");
  expect(session, "a session cookie").toBeDefined();
  return new ApiClient(server.url, { cookie: `studio_session=${session}` });
}

describe("single sign-on with OpenID Connect", () => {
  it("offers the provider on the sign-in page", async () => {
    const page = await fetch(`${server.url}/login`).then((response) => response.text());
    expect(page).toContain("Sign in with <!-- -->Team login");
    expect(page).toContain('href="/api/auth/oidc/start"');
  });

  it("signs a person in with the role their groups map to, made on the first visit, the same person with today's role on the next", async () => {
    const first = await signInAs("ada");
    expect(first.landed).toBe("/workflows");
    const me = await sessionOf(first.browser).expect(200, "GET", "/api/me");
    expect(me.person).toMatchObject({ login: "ada", displayName: "Ada Lovelace", role: "editor", hasPassword: false });
    expect(me.via).toBe("session");
    // The ID token was checked and the session is an ordinary one: it makes workflows as an editor does, and may not manage people.
    await sessionOf(first.browser).expect(201, "POST", "/api/workflows", { name: "Ada's", nodes: [{ id: "in", kind: "input" }], edges: [] });
    expect((await sessionOf(first.browser).get("/api/people")).status).toBe(403);

    ACCOUNTS.ada!.groups = ["studio-admins"];
    const second = await signInAs("ada");
    const again = await sessionOf(second.browser).expect(200, "GET", "/api/me");
    expect(again.person.id).toBe(me.person.id);
    expect(again.person.role).toBe("admin");
    const signIns = (await server.client().expect(200, "GET", `/api/audit?action=sign-in&actorId=${me.person.id}`)).entries;
    expect(signIns.map((entry: Json) => entry.detail.with)).toEqual(["oidc", "oidc"]);
  });

  it("refuses someone none of whose groups gives a role, and makes no one", async () => {
    const before = (await server.client().expect(200, "GET", "/api/people")).people.length;
    const { landed, browser } = await signInAs("bob");
    expect(landed).toBe("/login?problem=sso-no-role");
    expect(browser.cookie(new URL(server.url).host, "studio_session")).toBeUndefined();
    expect((await server.client().expect(200, "GET", "/api/people")).people).toHaveLength(before);
    const page = await fetch(`${server.url}/login?problem=sso-no-role`).then((response) => response.text());
    expect(page).toContain("none of your groups gives a role in this studio");
  });

  it("refuses an answer whose state is not this browser's, and one with no flow started here", async () => {
    const browser = new Browser();
    const callback = await follow(browser, `${server.url}/api/auth/oidc/start`, "ada", `${server.url}/api/auth/oidc/callback`);
    const forged = new URL(callback);
    forged.searchParams.set("state", "not-the-state-this-browser-was-given");
    const tampered = await browser.get(forged.href);
    expect(tampered.headers.get("location")).toBe("/login?problem=sso-failed");
    expect(browser.cookie(new URL(server.url).host, "studio_session")).toBeUndefined();
    // The real answer, in a browser that never started the flow (a link sent to someone else).
    const elsewhere = await new Browser().get(callback);
    expect(elsewhere.headers.get("location")).toBe("/login?problem=sso-expired");
    const failures = (await server.client().expect(200, "GET", "/api/audit?action=sign-in-failed")).entries;
    expect(failures.some((entry: Json) => entry.detail.with === "oidc")).toBe(true);
  });

  it("never hands an existing account to a provider identity of the same name, and keeps a deactivated person out", async () => {
    const owner = server.client();
    const carolHere = await invitePerson(owner, "carol", "viewer", "Carol here");
    const { browser } = await signInAs("carol");
    const me = await sessionOf(browser).expect(200, "GET", "/api/me");
    expect(me.person.id).not.toBe(carolHere.id);
    expect(me.person.login).toBe("carol-2");
    expect(me.person.role).toBe("approver");

    await owner.expect(200, "PATCH", `/api/people/${me.person.id}`, { active: false });
    const { landed } = await signInAs("carol");
    expect(landed).toBe("/login?problem=sso-deactivated");
  });
});
