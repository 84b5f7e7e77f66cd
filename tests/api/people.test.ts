import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Role } from "@/lib/contracts/roles";
import { ROUTE_ACCESS, type RouteAccess } from "@/lib/server/access/route-access";
import { ApiClient, type Json } from "./api-client";
import { chain, removeWorkFolders, shellNode, workFolder, writeFileWorkflow } from "./fixtures";
import { plausibleBody } from "./routes";
import { invitePerson, PERSON_PASSWORD, refusedFor, revokedTokenOf, simpleWorkflow as simple } from "./people-fixtures";
import { setupStudioServer } from "./studio-server";

/**
 * People and roles over HTTP, as a team uses them: the owner invites, people
 * join with their own passwords, a workflow is shared with some of them, and
 * each may do exactly what their role on it allows. What they may not see is
 * a 404 like what does not exist; what they see but may not do is a 403
 * naming the scope; a refusal changes nothing.
 */

const server = setupStudioServer();
let owner: ApiClient;
let anonymous: ApiClient;

/** Invites someone with `role` and joins as them; their browser's client. */
const join = (login: string, role: Role) => invitePerson(owner, login, role);


describe("people and roles", () => {
  let editor: { client: ApiClient; id: string };
  let approver: { client: ApiClient; id: string };
  let viewer: { client: ApiClient; id: string };
  let outsider: { client: ApiClient; id: string };
  let workflowId: string;
  let runId: string;

  beforeAll(async () => {
    owner = server.client();
    anonymous = new ApiClient(server.url);
    editor = await join("edda", "editor");
    approver = await join("abe", "approver");
    viewer = await join("vera", "viewer");
    // An editor of the studio, but nobody shared this workflow with them.
    outsider = await join("otto", "editor");
    workflowId = (await owner.expect(201, "POST", "/api/workflows", simple("Shared work"))).workflow.id;
    await owner.expect(200, "PUT", `/api/workflows/${workflowId}/shares`, {
      shares: [
        { subject: { personId: editor.id }, role: "editor" },
        { subject: { personId: approver.id }, role: "approver" },
        { subject: { role: "viewer" }, role: "viewer" },
      ],
    });
    runId = (await owner.expect(201, "POST", `/api/workflows/${workflowId}/runs`, { inputs: {} })).run.id;
  });

  afterAll(() => removeWorkFolders());

  it("answers every route as its table entry says, for a person the workflow is not shared with, a viewer, a revoked token and no credential; nothing changes", async () => {
    // A run that waits for a person, so there is an approval to guess the id of.
    const folder = workFolder("studio-people-");
    const gated = (await owner.expect(201, "POST", "/api/workflows", { name: "Gated", nodes: [{ id: "in", kind: "input" }, shellNode("shell", folder, "echo hi"), { id: "out", kind: "output", value: "x" }], edges: chain("in", "shell", "out") })).workflow.id as string;
    await owner.expect(200, "PUT", `/api/workflows/${gated}/shares`, { shares: [{ subject: { role: "viewer" }, role: "viewer" }] });
    const gatedRun = (await owner.expect(201, "POST", `/api/workflows/${gated}/runs`, { inputs: {} })).run.id as string;
    const approval = await owner.waitForApproval(gatedRun);
    const ids: Record<Exclude<RouteAccess, { kind: "signed-in" | "studio" | "listed" | "in-body" }>["from"], string> = { workflow: gated, run: gatedRun, approval: approval.id as string };
    const revoked = await revokedTokenOf(viewer.client);

    const before = await owner.counts();
    let checked = 0;
    for (const [key, access] of Object.entries(ROUTE_ACCESS) as [string, RouteAccess][]) {
      const [method, pattern] = key.split(" ") as [string, string];
      const objectId = access.kind === "workflow" ? ids[access.from] : "x";
      const url = pattern.replace("[id]", objectId).replace("[nodeId]", "out").replace("[version]", "1");
      const body = plausibleBody(method);
      for (const [who, client, expected] of [
        ["no credential", anonymous, 401],
        ["a revoked token", revoked, 401],
        // Not shared with them: the workflow's objects do not exist; studio-wide routes as their role says.
        ["a person it is not shared with", outsider.client, access.kind === "workflow" ? 404 : refusedFor("editor", access)],
        ["a viewer", viewer.client, access.kind === "workflow" ? refusedFor("viewer", access) : refusedFor("viewer", access)],
      ] as const) {
        // What they may do is the other tests' business; here, every refusal the table implies.
        if (expected === null) continue;
        const response = await client.request(method, url, body);
        expect(response.status, `${who}: ${key} → ${response.text.slice(0, 200)}`).toBe(expected);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(180);
    expect(await owner.counts()).toEqual(before);
    await owner.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "deny" });
  });

  it("shows a workflow, its runs and lists only to those it is shared with; to anyone else it does not exist", async () => {
    const missing = await owner.get("/api/workflows/01NOSUCHWORKFLOW0000000000");
    for (const person of [editor, approver, viewer]) {
      expect((await person.client.get(`/api/workflows/${workflowId}`)).status).toBe(200);
      expect((await person.client.get(`/api/runs/${runId}`)).status).toBe(200);
      expect(((await person.client.expect(200, "GET", "/api/workflows")).workflows as Json[]).map((workflow) => workflow.id)).toContain(workflowId);
    }
    const hidden = await outsider.client.get(`/api/workflows/${workflowId}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toBe(missing.body.error.replace("01NOSUCHWORKFLOW0000000000", workflowId));
    expect((await outsider.client.get(`/api/runs/${runId}`)).status).toBe(404);
    expect((await outsider.client.get(`/api/runs/${runId}/events`)).status).toBe(404);
    expect((await outsider.client.get(`/api/workflows/${workflowId}/versions`)).status).toBe(404);
    expect((await outsider.client.expect(200, "GET", "/api/workflows")).workflows).toEqual([]);
    expect((await outsider.client.expect(200, "GET", "/api/runs")).runs).toEqual([]);
  });

  it("lets each do what their role on the workflow allows, refuses the rest naming the scope, and a refusal changes nothing", async () => {
    const before = await owner.counts();
    for (const person of [approver, viewer]) {
      const edit = await person.client.put(`/api/workflows/${workflowId}`, simple("Taken over"));
      expect(edit.status).toBe(403);
      expect(edit.body.error).toMatch(/workflow:edit/);
      expect((await person.client.post(`/api/workflows/${workflowId}/runs`, { inputs: {} })).body.error).toMatch(/workflow:run/);
      expect((await person.client.delete(`/api/runs/${runId}`)).status).toBe(403);
      expect((await person.client.post("/api/workflows", simple("Mine"))).status).toBe(403);
    }
    expect((await outsider.client.put(`/api/workflows/${workflowId}`, simple("Taken over"))).status).toBe(404);
    expect((await outsider.client.post(`/api/workflows/${workflowId}/runs`, { inputs: {} })).status).toBe(404);
    expect((await editor.client.post("/api/secrets", { name: "TAKEN", value: "x" })).status).toBe(403);
    expect((await editor.client.get("/api/people")).status).toBe(403);
    expect((await viewer.client.get("/api/audit")).status).toBe(403);
    expect((await editor.client.put(`/api/workflows/${workflowId}/shares`, { shares: [{ subject: { personId: outsider.id }, role: "editor" }] })).status).toBe(403);
    expect(await owner.counts()).toEqual(before);
    // The editor may: edit, run.
    await editor.client.expect(200, "PUT", `/api/workflows/${workflowId}`, simple("Shared work, edited"));
    const edited = (await editor.client.expect(201, "POST", `/api/workflows/${workflowId}/runs`, { inputs: {} })).run;
    // Each run names who started it, a run again the person who asked for it, not the source's starter.
    expect(edited.startedBy).toEqual({ personId: editor.id, name: "Edda" });
    await owner.waitForRun(edited.id as string);
    const again = (await owner.expect(201, "POST", `/api/runs/${edited.id}/rerun`, { version: "same" })).run;
    // The owner's client holds the studio's access token: the run is the first owner's, named as the security log names that credential.
    const me = (await owner.expect(200, "GET", "/api/me")).person;
    expect((await editor.client.expect(200, "GET", `/api/runs/${again.id}`)).run.startedBy).toEqual({ personId: me.id, name: "access token" });
    // And the refusals are in the security log, naming who and what.
    const log: Json[] = (await owner.expect(200, "GET", "/api/audit")).entries;
    expect(log.filter((entry) => entry.action === "access-refused" && entry.actor === "Vera").map((entry) => entry.detail.scope)).toEqual(
      expect.arrayContaining(["workflow:edit", "workflow:run", "run:cancel", "audit:read"]),
    );
  });

  it("a decision names the person who made it, by id and name: in the approval, the run's events and the security log", async () => {
    const { id } = (await owner.expect(201, "POST", "/api/workflows", writeFileWorkflow(workFolder(), { name: "Ask Abe" }))).workflow;
    await owner.expect(200, "PUT", `/api/workflows/${id}/shares`, { shares: [{ subject: { personId: approver.id }, role: "approver" }] });
    const run = (await owner.expect(201, "POST", `/api/workflows/${id}/runs`, { inputs: { text: "hello" } })).run;
    const pending = await approver.client.waitForApproval(run.id as string);
    expect(pending.decidedBy).toBeNull();
    const decided = (await approver.client.expect(200, "POST", `/api/approvals/${pending.id}`, { decision: "once" })).approval;
    expect(decided).toMatchObject({ status: "approved", decidedBy: { personId: approver.id, name: "Abe" } });
    expect((await owner.waitForRun(run.id as string)).status).toBe("succeeded");
    expect((await owner.expect(200, "GET", `/api/approvals/${pending.id}`)).approval.decidedBy).toEqual({ personId: approver.id, name: "Abe" });
    expect((await owner.expect(200, "GET", `/api/runs/${run.id}`)).run.approvals[0].decidedBy).toEqual({ personId: approver.id, name: "Abe" });
    const events = await owner.events(run.id as string);
    expect(events.find((event) => event.type === "approval-decided")?.payload.approval.decidedBy).toEqual({ personId: approver.id, name: "Abe" });
    const log: Json[] = (await owner.expect(200, "GET", `/api/audit?action=approval-decided&actorId=${approver.id}`)).entries;
    expect(log).toEqual([
      expect.objectContaining({ actor: "Abe", actorId: approver.id, target: pending.id, detail: expect.objectContaining({ workflow: "Ask Abe", runId: run.id, decision: "once" }) }),
    ]);
  });

  it("a workflow an editor makes is theirs: other editors do not see it until it is shared", async () => {
    // The names they may share with: the other active people, by name only.
    const { people } = await editor.client.expect(200, "GET", "/api/people/directory");
    const names = (people as { id: string; displayName: string }[]).map((person) => person.displayName);
    expect(names).toEqual(expect.arrayContaining(["Abe", "Otto", "Vera"]));
    expect(names).not.toContain("Edda");
    expect(Object.keys((people as object[])[0]!).sort()).toEqual(["displayName", "id"]);
    expect((await approver.client.get("/api/people/directory")).status).toBe(403);
    const own = (await editor.client.expect(201, "POST", "/api/workflows", simple("Edda's own"))).workflow.id as string;
    expect((await outsider.client.get(`/api/workflows/${own}`)).status).toBe(404);
    expect((await owner.get(`/api/workflows/${own}`)).status).toBe(200);
    await editor.client.expect(200, "PUT", `/api/workflows/${own}/shares`, { shares: [{ subject: { personId: outsider.id }, role: "viewer" }] });
    expect((await outsider.client.get(`/api/workflows/${own}`)).status).toBe(200);
    expect((await outsider.client.put(`/api/workflows/${own}`, simple("Mine now"))).status).toBe(403);
  });

  it("gives a personal token only scopes its person holds, and it does no more than those", async () => {
    const refused = await viewer.client.post("/api/me/tokens", { name: "too much", scopes: ["run:read", "workflow:edit"] });
    expect(refused.status).toBe(422);
    expect(refused.body.issues).toEqual([expect.objectContaining({ path: "scopes", message: expect.stringContaining("workflow:edit") })]);
    const { token, record } = await editor.client.expect(201, "POST", "/api/me/tokens", { name: "reader", scopes: ["run:read", "workflow:read"] });
    expect(token).toMatch(/^nsp_/);
    const script = new ApiClient(server.url, { token });
    expect((await script.get(`/api/runs/${runId}`)).status).toBe(200);
    const start = await script.post(`/api/workflows/${workflowId}/runs`, { inputs: {} });
    expect(start.status).toBe(403);
    expect(start.body.error).toMatch(/token “reader” does not carry it/);
    // Listed without the token itself, with its last use.
    const listed: Json[] = (await editor.client.expect(200, "GET", "/api/me/tokens")).tokens;
    expect(listed).toEqual([expect.objectContaining({ id: record.id, name: "reader", scopes: ["run:read", "workflow:read"], lastUsedAt: expect.any(String) })]);
    expect(JSON.stringify(listed)).not.toContain(token);
    await editor.client.expect(200, "DELETE", `/api/me/tokens/${record.id}`);
    expect((await script.get(`/api/runs/${runId}`)).status).toBe(401);
  });

  it("refuses bad invitations and bodies by name, with nothing made", async () => {
    const { link } = await owner.expect(201, "POST", "/api/people/invitations", { role: "viewer" });
    const secret = new URL(link as string).pathname.split("/").pop()!;
    const weak = await anonymous.post("/api/invitations/accept", { secret, login: "wendy", displayName: "Wendy", password: "short" });
    expect(weak.status).toBe(422);
    expect(weak.body.issues).toEqual([expect.objectContaining({ path: "password", message: expect.stringContaining("at least 12 characters") })]);
    // A role in the body is not the invitation's to change: refused by name.
    const escalating = await anonymous.post("/api/invitations/accept", { secret, login: "wendy", displayName: "Wendy", password: PERSON_PASSWORD, role: "owner" });
    expect(escalating.status).toBe(422);
    expect(escalating.body.issues).toEqual([expect.objectContaining({ path: "role", message: expect.stringContaining("not a field") })]);
    await anonymous.post("/api/invitations/accept", { secret, login: "wendy", displayName: "Wendy", password: PERSON_PASSWORD }).then((response) => expect(response.status).toBe(201));
    const again = await anonymous.post("/api/invitations/accept", { secret, login: "wendy2", displayName: "Wendy", password: PERSON_PASSWORD });
    expect(again.status).toBe(410);
    expect(again.body.error).toMatch(/used already/);
    const people: Json[] = (await owner.expect(200, "GET", "/api/people")).people;
    expect(people.filter((person) => person.login.startsWith("wendy")).map((person) => [person.login, person.role])).toEqual([["wendy", "viewer"]]);
    // An admin may not make an owner; nobody may leave the studio without one.
    const ownerId = people.find((person) => person.role === "owner")!.id as string;
    const demoted = await owner.patch(`/api/people/${ownerId}`, { role: "admin" });
    expect(demoted.status).toBe(409);
    expect(demoted.body.error).toMatch(/only active owner/);
  });

  it("a person deactivated is out at once: their session and their tokens stop answering", async () => {
    const { token } = await viewer.client.expect(201, "POST", "/api/me/tokens", { name: "watch", scopes: ["run:read"] });
    expect((await new ApiClient(server.url, { token }).get(`/api/runs/${runId}`)).status).toBe(200);
    await owner.expect(200, "PATCH", `/api/people/${viewer.id}`, { active: false });
    expect((await viewer.client.get(`/api/runs/${runId}`)).status).toBe(401);
    expect((await new ApiClient(server.url, { token }).get(`/api/runs/${runId}`)).status).toBe(401);
    const signIn = await anonymous.post("/api/auth/login", { name: "vera", password: PERSON_PASSWORD });
    expect(signIn.status).toBe(401);
  });
});
