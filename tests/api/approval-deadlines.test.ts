import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient, Json } from "./api-client";
import { chain, removeWorkFolders, shellNode, workFolder } from "./fixtures";
import { invitePerson, type JoinedPerson } from "./people-fixtures";
import { connectEventStream, nextMessage } from "./sse-client";
import { setupStudioServer } from "./studio-server";
import { startScriptedOpenAIServer } from "../support/scripted-openai-server";

/**
 * Deadlines on approvals, over HTTP against the real server: an approval
 * nobody decides in time is denied (or escalated to other approvers, who get
 * time of their own), once, across a SIGKILL. Time passing is simulated by
 * moving the stored times back, never by waiting minutes; the studio checks
 * every 200 ms here (STUDIO_DEADLINE_CHECK_MS).
 */

const server = setupStudioServer({ env: { STUDIO_DEADLINE_CHECK_MS: "200" } });
let owner: ApiClient;
let abe: JoinedPerson;
let ada: JoinedPerson;
let folder: string;

const MINUTE = 60_000;

async function gatedRun(name: string, marker: string, policy: Json): Promise<{ runId: string; approval: Json; workflowId: string }> {
  const shell = { ...shellNode("shell", folder, `echo done > ${marker}`), approvals: policy };
  const workflow = { name, nodes: [{ id: "in", kind: "input" }, shell, { id: "out", kind: "output", value: "x" }], edges: chain("in", "shell", "out") };
  const workflowId = (await owner.expect(201, "POST", "/api/workflows", workflow)).workflow.id as string;
  await owner.expect(200, "PUT", `/api/workflows/${workflowId}/shares`, { shares: [{ subject: { role: "approver" }, role: "approver" }] });
  const runId = (await owner.expect(201, "POST", `/api/workflows/${workflowId}/runs`, { inputs: {} })).run.id as string;
  return { runId, workflowId, approval: await owner.waitForApproval(runId) };
}

/** Moves the approval's stored times back by `ms`, as if that long had passed. */
async function backdate(approvalId: string, ms: number, field: "createdAt" | "escalatedAt"): Promise<void> {
  const database = server.openDatabase();
  try {
    const row = await database.approval.findUniqueOrThrow({ where: { id: approvalId } });
    const at = row[field];
    if (!at) throw new Error(`approval ${approvalId} has no ${field}`);
    await database.approval.update({ where: { id: approvalId }, data: { [field]: new Date(at.getTime() - ms) } });
  } finally {
    await database.$disconnect();
  }
}

/** Reads the approval until `done` holds for it (the deadline pass runs every 200 ms). */
async function approvalWhen(approvalId: string, done: (approval: Json) => boolean): Promise<Json> {
  const until = Date.now() + 60_000;
  for (;;) {
    const { approval } = await owner.expect(200, "GET", `/api/approvals/${approvalId}`);
    if (done(approval)) return approval;
    if (Date.now() > until) throw new Error(`approval ${approvalId} never reached the state awaited: ${JSON.stringify(approval).slice(0, 400)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const auditOf = async (action: string, approvalId: string) =>
  ((await owner.expect(200, "GET", `/api/audit?action=${action}&limit=200`)).entries as Json[]).filter((entry) => entry.detail.approval === approvalId);

describe("approval deadlines", () => {
  beforeAll(async () => {
    owner = server.client();
    folder = workFolder("studio-deadlines-");
    abe = await invitePerson(owner, "abe", "approver");
    ada = await invitePerson(owner, "ada", "approver");
  });

  afterAll(() => removeWorkFolders());

  it("denies an approval nobody decided in time, tells the step why, and logs it", async () => {
    const { runId, approval } = await gatedRun("Five minutes", "late.txt", { deadline: { minutes: 5 } });
    expect(Date.parse(approval.dueAt) - Date.parse(approval.createdAt)).toBe(5 * MINUTE);
    await backdate(approval.id, 6 * MINUTE, "createdAt");
    const run = await owner.waitForRun(runId);
    expect(run.status).toBe("failed");
    const decided = await approvalWhen(approval.id, (each) => each.status !== "pending");
    expect(decided).toMatchObject({ status: "denied", decision: "deny", decidedBy: { personId: null, name: "the deadline" } });
    expect(decided.feedback).toMatch(/^Nobody decided within 5 minutes: denied by its deadline/);
    expect(run.steps.find((step: Json) => step.nodeId === "shell").error).toMatch(/Nobody was there to approve/);
    expect(existsSync(path.join(folder, "late.txt"))).toBe(false);
    expect(await auditOf("approval-expired", approval.id)).toHaveLength(1);
  });

  it("escalates to the named approver, who then has time of their own; denied once though the studio was killed between", async () => {
    const policy = { approvers: [{ kind: "role", role: "approver" }], deadline: { minutes: 30, then: "escalate", escalateTo: [{ kind: "person", personId: ada.id }], escalateMinutes: 60 } };
    const { runId, approval } = await gatedRun("Escalates", "escalated.txt", policy);
    await backdate(approval.id, 31 * MINUTE, "createdAt");
    const escalated = await approvalWhen(approval.id, (each) => each.escalatedAt !== null);
    expect(escalated.status).toBe("pending");
    expect(escalated.policy.approvers).toEqual([{ kind: "person", personId: ada.id }]);
    expect(Date.parse(escalated.dueAt) - Date.parse(escalated.escalatedAt)).toBe(60 * MINUTE);
    // Said on the run's stream while it waits: the run's page and the new approver's open tabs hear it.
    const stream = await connectEventStream(`${server.url}/api/runs/${runId}/events`, owner.credential);
    try {
      expect(JSON.parse((await nextMessage(stream, (message) => message.event === "approval-escalated")).data)).toMatchObject({ payload: { approvalId: approval.id } });
    } finally {
      stream.close();
    }
    // Abe was an approver before; now it is Ada's.
    const refused = await abe.client.post(`/api/approvals/${approval.id}`, { decision: "approve", digest: approval.digest });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("Only Ada may decide this approval.");

    // The studio dies; meanwhile the escalation's hour passes too.
    await server.kill("SIGKILL");
    await backdate(approval.id, 61 * MINUTE, "escalatedAt");
    await server.restart();
    expect((await owner.waitForRun(runId)).status).toBe("failed");
    const denied = await approvalWhen(approval.id, (each) => each.status !== "pending");
    expect(denied).toMatchObject({ status: "denied", decidedBy: { personId: null, name: "the deadline" } });
    expect(denied.feedback).toMatch(/^Nobody decided within 60 minutes of its escalation/);
    expect(existsSync(path.join(folder, "escalated.txt"))).toBe(false);
    expect(await auditOf("approval-escalated", approval.id)).toHaveLength(1);
    expect(await auditOf("approval-expired", approval.id)).toHaveLength(1);
    // The run's timeline tells it in order, the escalation once across the kill (this test's own reads of the card are views).
    const story = (await owner.events(runId)).filter((event) => event.type.startsWith("approval-") && event.type !== "approval-viewed").map((event) => event.type);
    expect(story).toEqual(["approval-requested", "approval-escalated", "approval-decided"]);
  });

  it("keeps an approval decided in time decided: the deadline passing later changes nothing", async () => {
    const { runId, approval } = await gatedRun("In time", "in-time.txt", { deadline: { minutes: 5 } });
    await ada.client.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "approve", digest: approval.digest });
    expect((await owner.waitForRun(runId)).status).toBe("succeeded");
    await backdate(approval.id, 6 * MINUTE, "createdAt");
    // A later run's deadline firing shows a pass has run since.
    const { approval: later } = await gatedRun("Later", "later.txt", { deadline: { minutes: 1 } });
    await backdate(later.id, 2 * MINUTE, "createdAt");
    await approvalWhen(later.id, (each) => each.status === "denied");
    expect((await owner.expect(200, "GET", `/api/approvals/${approval.id}`)).approval).toMatchObject({ status: "approved", decidedBy: { personId: ada.id, name: "Ada" } });
    expect(await auditOf("approval-expired", approval.id)).toHaveLength(0);
  });

  it("answers a question nobody answered in time with the policy's default, and the model goes on with it", async () => {
    const model = await startScriptedOpenAIServer();
    try {
      model.script({ toolCalls: [{ name: "ask_user", arguments: { question: "Which database should I clean?" } }] }, { text: "Cleaned the staging database." });
      await owner.expect(201, "POST", "/api/secrets", { name: "DEADLINE_MODEL_KEY", value: "sk-deadline-model-key" });
      const agent = {
        id: "agent",
        kind: "agent",
        label: "Cleaner",
        provider: "openai_compatible",
        model: "scripted-model",
        baseUrl: model.baseUrl,
        apiKey: "${DEADLINE_MODEL_KEY}",
        task: "Clean the database the person names.",
        maxTurns: 4,
        approvals: { approvers: [], required: 1, deadline: { minutes: 5, then: "answer", answer: "Use the staging database." } },
      };
      const workflow = {
        name: "Asks, then takes the default",
        // Every agent may ask the person (ask_user comes with it).
        nodes: [{ id: "in", kind: "input" }, agent, { id: "out", kind: "output", value: "{{ nodes.agent.output }}" }],
        edges: chain("in", "agent", "out"),
      };
      const workflowId = (await owner.expect(201, "POST", "/api/workflows", workflow)).workflow.id as string;
      const runId = (await owner.expect(201, "POST", `/api/workflows/${workflowId}/runs`, { inputs: {} })).run.id as string;
      const question = await owner.waitForApproval(runId);
      expect(question).toMatchObject({ kind: "ask", status: "pending" });
      await backdate(question.id, 6 * MINUTE, "createdAt");

      const run = await owner.waitForRun(runId);
      expect(run.status, run.error).toBe("succeeded");
      const answered = await approvalWhen(question.id, (each) => each.status !== "pending");
      expect(answered).toMatchObject({ status: "answered", decision: "answer", feedback: "Use the staging database.", decidedBy: { personId: null, name: "the deadline" } });
      // The model's next turn holds the default as the question's answer.
      expect(JSON.stringify(model.requests.at(-1)!.body)).toContain("Use the staging database.");
      expect(run.output).toBe("Cleaned the staging database.");
    } finally {
      await model.close();
    }
  });

  it("refuses a deadline that is not one, naming the field", async () => {
    for (const [deadline, field, message] of [
      [{ minutes: 0 }, "approvals.default.deadline.minutes", "at least 1 minute"],
      [{ minutes: 600_000 }, "approvals.default.deadline.minutes", "at most a year"],
      [{ minutes: 10, then: "escalate", escalateMinutes: 5 }, "approvals.default.deadline.escalateTo", "name the roles or people"],
      [{ minutes: 10, then: "answer" }, "approvals.default.deadline.answer", "write the answer"],
    ] as const) {
      const refused = await owner.post("/api/workflows", { name: "Bad deadline", approvals: { default: { deadline } }, nodes: [{ id: "in", kind: "input" }], edges: [] });
      expect(refused.status, JSON.stringify(deadline)).toBe(422);
      expect(refused.body.issues).toEqual([expect.objectContaining({ path: field, message: expect.stringContaining(message) })]);
    }
  });
});
