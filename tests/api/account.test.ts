import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MeViewSchema } from "@/lib/contracts/people";
import { ROLE_SCOPES } from "@/lib/contracts/roles";
import { ApiClient, type Json } from "./api-client";
import { removeWorkFolders } from "./fixtures";
import { setupStudioServer } from "./studio-server";

/**
 * A person's own account over HTTP, as Settings → Account uses it: who they
 * are and what they may do (GET /api/me, through its contract), their name
 * (the sessions and so the header take it), their password (the current one
 * first; the first owner without one sets theirs after a recent sign-in), and
 * each bad body refused naming its field with nothing changed.
 */

const server = setupStudioServer();
let owner: ApiClient;
let anonymous: ApiClient;
const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "staple gun across the bay";

function cookieOf(response: { headers: Headers }): string {
  return (response.headers.get("set-cookie") ?? "").split(";")[0]!;
}

describe("your account", () => {
  let anna: { client: ApiClient; id: string };

  beforeAll(async () => {
    owner = server.client();
    anonymous = new ApiClient(server.url);
    const { link } = await owner.expect(201, "POST", "/api/people/invitations", { role: "editor", note: "for anna" });
    const secret = new URL(link as string).pathname.split("/").pop()!;
    const joined = await anonymous.post("/api/invitations/accept", { secret, login: "anna", displayName: "Anna", password: PASSWORD });
    expect(joined.status, joined.text).toBe(201);
    anna = { client: new ApiClient(server.url, { cookie: cookieOf(joined) }), id: joined.body.person.id as string };
  });

  afterAll(() => removeWorkFolders());

  it("GET /api/me answers the contract: the person (without who made them), how they came in and their role's scopes", async () => {
    const me = MeViewSchema.parse(await anna.client.expect(200, "GET", "/api/me"));
    expect(me.person).toEqual(expect.objectContaining({ id: anna.id, login: "anna", displayName: "Anna", role: "editor", hasPassword: true }));
    expect(me.person).not.toHaveProperty("createdBy");
    expect(me.via).toBe("session");
    expect([...me.scopes].sort()).toEqual([...ROLE_SCOPES.editor].sort());
    // A token's own scopes, not the role's.
    const { token } = await anna.client.expect(201, "POST", "/api/me/tokens", { name: "me reader", scopes: ["run:read"] });
    const viaToken = MeViewSchema.parse(await new ApiClient(server.url, { token }).expect(200, "GET", "/api/me"));
    expect(viaToken).toEqual(expect.objectContaining({ via: "personal-token", tokenName: "me reader", scopes: ["run:read"] }));
  });

  it("a new name is the person's and their sessions' at once; a role or an empty name is refused by name", async () => {
    const changed = await anna.client.expect(200, "PATCH", "/api/me", { displayName: "  Anna Karlsson " });
    expect(changed.person.displayName).toBe("Anna Karlsson");
    expect(changed.person).not.toHaveProperty("createdBy");
    const { sessions } = await anna.client.expect(200, "GET", "/api/auth/sessions");
    expect((sessions as Json[]).map((session) => session.person)).toEqual(["Anna Karlsson"]);
    // What the header shows: the security log's actor for her next action is the new name.
    await anna.client.expect(201, "POST", "/api/me/tokens", { name: "after the rename", scopes: ["workflow:read"] });
    const log: Json[] = (await owner.expect(200, "GET", "/api/audit")).entries;
    expect(log.find((entry) => entry.action === "token-created" && entry.detail.name === "after the rename")?.actor).toBe("Anna Karlsson");

    const empty = await anna.client.patch("/api/me", { displayName: "   " });
    expect(empty.status).toBe(422);
    expect(empty.body.issues).toEqual([expect.objectContaining({ path: "displayName", message: "enter the name others will see" })]);
    const escalating = await anna.client.patch("/api/me", { displayName: "Anna", role: "owner" });
    expect(escalating.status).toBe(422);
    expect(escalating.body.issues).toEqual([expect.objectContaining({ path: "role" })]);
    expect((await anna.client.expect(200, "GET", "/api/me")).person).toEqual(expect.objectContaining({ displayName: "Anna Karlsson", role: "editor" }));
  });

  it("changes a password with the current one: a wrong one or a weak new one is refused naming the field; other browsers are signed out", async () => {
    const signedIn = await anonymous.post("/api/auth/login", { name: "anna", password: PASSWORD });
    expect(signedIn.status, signedIn.text).toBe(200);
    const elsewhere = new ApiClient(server.url, { cookie: cookieOf(signedIn) });
    expect((await elsewhere.get("/api/me")).status).toBe(200);

    const wrong = await anna.client.put("/api/me/password", { currentPassword: "not my password at all", newPassword: NEW_PASSWORD });
    expect(wrong.status).toBe(422);
    expect(wrong.body.issues).toEqual([expect.objectContaining({ path: "currentPassword", message: "that is not your current password" })]);
    const missing = await anna.client.put("/api/me/password", { newPassword: NEW_PASSWORD });
    expect(missing.status).toBe(422);
    expect(missing.body.issues).toEqual([expect.objectContaining({ path: "currentPassword" })]);
    const weak = await anna.client.put("/api/me/password", { currentPassword: PASSWORD, newPassword: "short" });
    expect(weak.status).toBe(422);
    expect(weak.body.issues).toEqual([expect.objectContaining({ path: "newPassword", message: expect.stringContaining("at least 12 characters") })]);
    const { token } = await anna.client.expect(201, "POST", "/api/me/tokens", { name: "not for passwords", scopes: ["workflow:read"] });
    expect((await new ApiClient(server.url, { token }).put("/api/me/password", { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })).status).toBe(403);
    // Nothing changed by any of those: the old password still signs in.
    expect((await elsewhere.get("/api/me")).status).toBe(200);

    await anna.client.expect(200, "PUT", "/api/me/password", { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect((await anna.client.get("/api/me")).status).toBe(200);
    expect((await elsewhere.get("/api/me")).status).toBe(401);
    expect((await anonymous.post("/api/auth/login", { name: "anna", password: PASSWORD })).status).toBe(401);
    expect((await anonymous.post("/api/auth/login", { name: "anna", password: NEW_PASSWORD })).status).toBe(200);
  });

  it("the first owner, in by the access token with no password yet, sets one without a current password; from then on the current one is asked", async () => {
    const before = MeViewSchema.parse(await owner.expect(200, "GET", "/api/me"));
    expect(before.person.hasPassword).toBe(false);
    const weak = await owner.put("/api/me/password", { newPassword: "owner" });
    expect(weak.status).toBe(422);
    expect(weak.body.issues).toEqual([expect.objectContaining({ path: "newPassword" })]);
    await owner.expect(200, "PUT", "/api/me/password", { newPassword: NEW_PASSWORD });
    expect(MeViewSchema.parse(await owner.expect(200, "GET", "/api/me")).person.hasPassword).toBe(true);
    const again = await owner.put("/api/me/password", { newPassword: "another long password here" });
    expect(again.status).toBe(422);
    expect(again.body.issues).toEqual([expect.objectContaining({ path: "currentPassword" })]);
  });
});
