import { readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient, Json } from "./api-client";
import { chain, removeWorkFolders, shellNode, workFolder } from "./fixtures";
import { invitePerson, type JoinedPerson } from "./people-fixtures";
import { connectEventStream, nextMessage } from "./sse-client";
import { setupStudioServer } from "./studio-server";

/**
 * Who decides an approval, over HTTP: a step's or a workflow's policy names
 * the approvers and how many must approve; the person who started the run is
 * left out when two must; each person counts once; one denial ends it; a
 * refusal names the policy, changes nothing and is in the security log.
 */

const server = setupStudioServer();
let owner: ApiClient;
let abe: JoinedPerson;
let ada: JoinedPerson;
let cy: JoinedPerson;
let folder: string;

/** A workflow of one shell step (writing `marker`) under `policy`, shared with every approver; started by the owner. */
async function gatedRun(name: string, marker: string, policies: { node?: Json; workflow?: Json }): Promise<{ runId: string; approval: Json }> {
  const shell = { ...shellNode("shell", folder, `echo done > ${marker}`), ...(policies.node ? { approvals: policies.node } : {}) };
  const workflow = {
    name,
    ...(policies.workflow ? { approvals: policies.workflow } : {}),
    nodes: [{ id: "in", kind: "input" }, shell, { id: "out", kind: "output", value: "x" }],
    edges: chain("in", "shell", "out"),
  };
  const workflowId = (await owner.expect(201, "POST", "/api/workflows", workflow)).workflow.id as string;
  await owner.expect(200, "PUT", `/api/workflows/${workflowId}/shares`, { shares: [{ subject: { role: "approver" }, role: "approver" }] });
  const runId = (await owner.expect(201, "POST", `/api/workflows/${workflowId}/runs`, { inputs: {} })).run.id as string;
  return { runId, approval: await owner.waitForApproval(runId) };
}

const decide = (person: { client: ApiClient }, approval: Json, decision: "approve" | "deny") => person.client.post(`/api/approvals/${approval.id}`, { decision, digest: approval.digest });
const ran = (marker: string) => {
  try {
    return readFileSync(path.join(folder, marker), "utf8").trim() === "done";
  } catch {
    return false;
  }
};

describe("approval policies", () => {
  beforeAll(async () => {
    owner = server.client();
    folder = workFolder("studio-policies-");
    abe = await invitePerson(owner, "abe", "approver");
    ada = await invitePerson(owner, "ada", "approver");
    cy = await invitePerson(owner, "cy", "approver");
  });

  afterAll(() => removeWorkFolders());

  it("needs two different people when the step says 2, never the starter, each once; the step runs after the second", async () => {
    const { runId, approval } = await gatedRun("Two of them", "two.txt", { node: { required: 2 } });
    expect(approval.policy).toEqual({ approvers: [], required: 2 });
    const me = (await owner.expect(200, "GET", "/api/me")).person;
    expect(approval.startedById).toBe(me.id);
    const before = await owner.counts();
    // The owner started the run: they may decide approvals, not this one.
    const starter = await decide({ client: owner }, approval, "approve");
    expect(starter.status).toBe(403);
    expect(starter.body.error).toMatch(/started the run may not approve/);
    expect(await owner.counts()).toEqual(before);

    // Open before the vote: the run's own stream, and another approver's feed (what their inbox listens to).
    const runStream = await connectEventStream(`${server.url}/api/runs/${runId}/events`, owner.credential);
    const othersFeed = await connectEventStream(`${server.url}/api/events`, cy.client.credential);
    const first = await decide(abe, approval, "approve");
    expect(first.status, first.text).toBe(200);
    expect(first.body.approval.status).toBe("pending");
    expect(first.body.approval.votes).toEqual([expect.objectContaining({ personId: abe.id, name: "Abe", approve: true })]);
    try {
      // Said at once on the run's timeline and to every open page: the vote is an event of the run.
      const voted = await nextMessage(runStream, (message) => message.event === "approval-voted");
      expect(JSON.parse(voted.data)).toMatchObject({ nodeId: "shell", payload: { approvalId: approval.id, by: "Abe", approvals: 1, required: 2 } });
      const change = await nextMessage(othersFeed, (message) => message.event === "change" && JSON.parse(message.data).type === "approval-voted");
      expect(JSON.parse(change.data)).toMatchObject({ runId, nodeId: "shell" });
    } finally {
      runStream.close();
      othersFeed.close();
    }
    const again = await decide(abe, approval, "approve");
    expect(again.status).toBe(403);
    expect(again.body.error).toMatch(/already/);
    expect(ran("two.txt")).toBe(false);

    const second = await decide(ada, approval, "approve");
    expect(second.status, second.text).toBe(200);
    expect(second.body.approval.status).toBe("approved");
    expect(second.body.approval.votes.map((vote: Json) => vote.name)).toEqual(["Abe", "Ada"]);
    expect((await owner.waitForRun(runId)).status).toBe("succeeded");
    expect(ran("two.txt")).toBe(true);
    // The timeline: asked, one approval of two (once, however it was heard), then decided by the second.
    const story = (await owner.events(runId)).filter((event) => event.type.startsWith("approval-"));
    expect(story.map((event) => `${event.type} ${event.payload.by ?? event.payload.approval?.decidedBy?.name ?? ""}`.trim())).toEqual([
      "approval-requested",
      "approval-voted Abe",
      "approval-decided Ada",
    ]);
    // A third is too late: it was decided.
    expect((await decide(cy, approval, "approve")).status).toBe(409);
  });

  it("ends at the first denial, though one approved", async () => {
    const { runId, approval } = await gatedRun("Denied by one", "denied.txt", { workflow: { kinds: { shell: { required: 2 } } } });
    expect(approval.policy.required).toBe(2);
    await decide(abe, approval, "approve").then((answer) => expect(answer.status).toBe(200));
    const denied = await decide(ada, approval, "deny");
    expect(denied.body.approval.status).toBe("denied");
    await owner.waitForRun(runId);
    expect(ran("denied.txt")).toBe(false);
  });

  it("lets only the people a policy names decide, says who may, and logs the refusal", async () => {
    const { runId, approval } = await gatedRun("Ada decides", "ada.txt", { workflow: { default: { approvers: [{ kind: "person", personId: ada.id }] } } });
    const refused = await decide(abe, approval, "approve");
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("Only Ada may decide this approval.");
    expect((await owner.expect(200, "GET", `/api/approvals/${approval.id}`)).approval.status).toBe("pending");
    const log: Json[] = (await owner.expect(200, "GET", `/api/audit?actorId=${abe.id}&action=access-refused`)).entries;
    expect(log[0]!.detail).toMatchObject({ policy: "Only Ada may decide this approval.", approval: approval.id });
    await decide(ada, approval, "approve").then((answer) => expect(answer.body.approval.status).toBe("approved"));
    expect((await owner.waitForRun(runId)).status).toBe("succeeded");
  });

  it("tells each person what waits for them and what waits for others, and why", async () => {
    const { runId, approval } = await gatedRun("Ada's inbox", "inbox.txt", { node: { approvers: [{ kind: "person", personId: ada.id }] } });
    const mine: Json[] = (await ada.client.expect(200, "GET", "/api/approvals?status=pending&for=me")).approvals;
    expect(mine.find((each) => each.id === approval.id)?.viewer).toEqual({ mayDecide: true, reason: null });
    const team: Json[] = (await abe.client.expect(200, "GET", "/api/approvals?status=pending&for=team")).approvals;
    expect(team.find((each) => each.id === approval.id)?.viewer).toEqual({ mayDecide: false, reason: "Only Ada may decide this approval." });
    expect(((await abe.client.expect(200, "GET", "/api/approvals?status=pending&for=me")).approvals as Json[]).map((each) => each.id)).not.toContain(approval.id);
    expect((await abe.client.get("/api/approvals?for=everyone")).status).toBe(422);
    await decide(ada, approval, "approve");
    await owner.waitForRun(runId);
  });

  it("offers a person's agent client the approvals waiting for them as MCP tools, under the same rules", async () => {
    const { runId, approval } = await gatedRun("Decided from an agent", "agent.txt", { node: { required: 2 } });
    const connect = async (person: JoinedPerson, scopes: string[]) => {
      const { token } = await person.client.expect(201, "POST", "/api/me/tokens", { name: `agent ${scopes.join(" ")}`, scopes, expiresInDays: 1 });
      const client = new Client({ name: "approver-agent", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      return client;
    };
    const agent = await connect(ada, ["approval:decide"]);
    try {
      // Without workflow:run no workflow is served; the two approval tools are.
      expect((await agent.listTools()).tools.map((tool) => tool.name)).toEqual(["list_pending_approvals", "decide_approval"]);
      const listed = await agent.callTool({ name: "list_pending_approvals", arguments: {} });
      const waiting = (listed.structuredContent as { approvals: Json[] }).approvals.find((each) => each.approvalId === approval.id);
      expect(waiting).toMatchObject({ kind: "shell", digest: approval.digest, approvalsNeeded: 2, approvedBy: [] });
      expect(waiting!.wants).toContain("echo done > agent.txt");
      const wrongDigest = await agent.callTool({ name: "decide_approval", arguments: { approvalId: approval.id, decision: "approve", digest: "not-what-was-shown" } });
      expect(wrongDigest.isError).toBe(true);
      expect(JSON.stringify(wrongDigest.content)).toMatch(/not what this step would do now/);
      const voted = await agent.callTool({ name: "decide_approval", arguments: { approvalId: approval.id, decision: "approve", digest: approval.digest } });
      expect(voted.structuredContent).toEqual({ approvalId: approval.id, status: "pending" });
      const twice = await agent.callTool({ name: "decide_approval", arguments: { approvalId: approval.id, decision: "approve", digest: approval.digest } });
      expect(twice.isError).toBe(true);
    } finally {
      await agent.close();
    }
    // The second approval, from the inbox: the step runs.
    await decide(abe, approval, "approve");
    expect((await owner.waitForRun(runId)).status).toBe("succeeded");
    expect((await owner.expect(200, "GET", `/api/approvals/${approval.id}`)).approval.votes.map((vote: Json) => vote.name)).toEqual(["Ada (token agent approval:decide)", "Abe"]);
    // A token that may neither run nor decide is told so.
    const { token: reader } = await cy.client.expect(201, "POST", "/api/me/tokens", { name: "reader", scopes: ["run:read"], expiresInDays: 1 });
    const refused = await fetch(`${server.url}/api/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${reader}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/approval:decide/);
  });

  it("counts in the navigation's badge only what the person may decide: an approver sees it, a viewer of the workflow does not", async () => {
    const vi = await invitePerson(owner, "vi", "viewer");
    const { runId, approval } = await gatedRun("Counted for deciders", "counted.txt", {});
    const workflowId = (await owner.expect(200, "GET", `/api/runs/${runId}`)).run.workflowId as string;
    await owner.expect(200, "PUT", `/api/workflows/${workflowId}/shares`, {
      shares: [
        { subject: { role: "approver" }, role: "approver" },
        { subject: { personId: vi.id }, role: "viewer" },
      ],
    });
    // The viewer sees the waiting run and its approval, and is not counted as having it to answer.
    expect((await vi.client.expect(200, "GET", `/api/approvals/${approval.id}`)).approval.status).toBe("pending");
    const counts = async (person: JoinedPerson) => {
      const feed = await connectEventStream(`${server.url}/api/events`, person.client.credential);
      try {
        return JSON.parse((await feed.next())!.data).pendingApprovals as number;
      } finally {
        feed.close();
      }
    };
    expect(await counts(vi)).toBe(0);
    expect(await counts(abe)).toBeGreaterThanOrEqual(1);
    await decide(abe, approval, "approve");
    await owner.waitForRun(runId);

    // Two must approve, and not the one who started it: the owner may decide approvals, but this one is not theirs to count.
    const before = await counts({ client: owner } as JoinedPerson);
    const two = await gatedRun("Not the starter's to count", "two-counted.txt", { node: { required: 2 } });
    await expect.poll(() => counts(abe)).toBeGreaterThanOrEqual(1);
    expect(await counts({ client: owner } as JoinedPerson)).toBe(before);
    await decide(abe, two.approval, "approve");
    await decide(ada, two.approval, "approve");
    await owner.waitForRun(two.runId);
  });

  it("writes to the security log who opened a card, once however often they read it, and not for the inbox's list", async () => {
    const { runId, approval } = await gatedRun("Seen by Cy", "seen.txt", {});
    const viewsOf = async () =>
      ((await owner.expect(200, "GET", `/api/audit?action=approval-viewed&actorId=${cy.id}`)).entries as Json[]).filter((entry) => entry.target === approval.id);
    await cy.client.expect(200, "GET", "/api/approvals?status=pending");
    expect(await viewsOf()).toEqual([]);
    await cy.client.expect(200, "GET", `/api/approvals/${approval.id}`);
    await cy.client.expect(200, "GET", `/api/approvals/${approval.id}`);
    const views = await viewsOf();
    expect(views).toHaveLength(1);
    expect(views[0]).toMatchObject({ actor: "Cy", action: "approval-viewed", detail: expect.objectContaining({ runId, kind: "shell", status: "pending" }) });
    await decide(cy, approval, "approve");
    await owner.waitForRun(runId);
    // The run's timeline says it too, once, before the decision.
    const story = (await owner.events(runId)).filter((event) => event.type.startsWith("approval-"));
    expect(story.map((event) => event.type)).toEqual(["approval-requested", "approval-viewed", "approval-decided"]);
    expect(story[1]!.payload).toMatchObject({ approvalId: approval.id, viewId: views[0]!.id, by: "Cy" });
  });

  it("refuses a policy that is not one when the workflow is saved, naming the field", async () => {
    const refused = await owner.post("/api/workflows", {
      name: "Bad policy",
      approvals: { kinds: { shell: { required: 9 } } },
      nodes: [{ id: "in", kind: "input" }],
      edges: [],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.issues).toEqual([expect.objectContaining({ path: "approvals.kinds.shell.required", message: "at most 5 approvals" })]);
  });
});
