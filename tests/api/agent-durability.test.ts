import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type RecordedRequest, type ScriptedOpenAIServer } from "../support/scripted-openai-server";
import { ApiClient, waitFor } from "./api-client";
import { edge, removeWorkFolders, workFolder } from "./fixtures";
import type { RunEventJson } from "./sse-client";
import { setupStudioServer, takeoverMs } from "./studio-server";

/**
 * The durability promise for agent nodes, through the real server and
 * database: SIGKILL the server while an agent waits for a write's approval,
 * or while it waits for the model's next turn, and after a restart on the
 * same data folder the agent goes on from its last checkpoint. The model is
 * never asked again for a turn it already answered, the write happens once.
 */

const server = setupStudioServer();
let api: ApiClient;
const models: ScriptedOpenAIServer[] = [];

beforeAll(async () => {
  api = server.client();
  await api.expect(201, "POST", "/api/secrets", { name: "DURABLE_AGENT_KEY", value: "sk-durable-agent-key" });
});

afterEach(async () => {
  await Promise.all(models.splice(0).map((model) => model.close()));
});

afterAll(() => {
  removeWorkFolders();
});

/** A fresh scripted model per test, so its recorded requests are this test's alone. */
async function scriptedModel(): Promise<ScriptedOpenAIServer> {
  const model = await startScriptedOpenAIServer();
  models.push(model);
  return model;
}

function agentWriteWorkflow(name: string, baseUrl: string, root: string) {
  return {
    name,
    mode: "default",
    nodes: [
      { id: "in", kind: "input", fields: [] },
      {
        id: "agent",
        kind: "agent",
        provider: "openai_compatible",
        model: "scripted-model",
        baseUrl,
        apiKey: "${DURABLE_AGENT_KEY}",
        systemPrompt: "You write notes.",
        task: "Write the note.",
        maxTurns: 5,
      },
      { id: "write", kind: "tool", tool: "write_file", settings: { root } },
      { id: "out", kind: "output", value: "{{ nodes.agent.output }}" },
    ],
    edges: [edge("in", "agent"), edge("write", "agent"), edge("agent", "out")],
  };
}

const WRITE_CALL = { name: "write_file", arguments: { path: "note.txt", content: "written once" } };

/** Events numbered 1, 2, 3, ... with no gap and no repeat. */
function expectContiguous(events: RunEventJson[]): void {
  expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
}

const count = (events: RunEventJson[], type: string, predicate: (event: RunEventJson) => boolean = () => true) =>
  events.filter((event) => event.type === type && predicate(event)).length;

const messagesOf = (request: RecordedRequest) => (request.body as { messages: { role: string }[] }).messages;

/** Turn 1 is the only request whose conversation is the task alone; every later turn carries the write's result. */
function expectTurnOneAskedOnce(requests: RecordedRequest[]): void {
  expect(messagesOf(requests[0]!).filter((message) => message.role !== "system").map((message) => message.role)).toEqual(["user"]);
  for (const request of requests.slice(1)) {
    expect(messagesOf(request).map((message) => message.role)).toContain("tool");
    expect(JSON.stringify(messagesOf(request))).toContain("note.txt");
  }
}

describe("agent durability across SIGKILL", () => {
  it("keeps an agent's write waiting for approval across a kill, and resumes without asking the model turn 1 again", async () => {
    const model = await scriptedModel();
    model.script({ text: "Writing it.", toolCalls: [WRITE_CALL] }, { text: "The note is written." });
    const root = workFolder();
    const { id } = await api.createWorkflow(agentWriteWorkflow("Agent survives a kill while waiting", model.baseUrl, root));
    const run = await api.startRun(id);
    const approval = await api.waitForApproval(run.id);
    expect(approval).toMatchObject({ kind: "write", nodeId: "agent", tool: "write_file" });
    expect(model.requests).toHaveLength(1);

    await server.kill("SIGKILL");
    await server.restart();

    const resumed = await api.waitForRun(run.id, ["awaiting_input", "succeeded", "failed", "cancelled"]);
    expect(resumed.status, resumed.error).toBe("awaiting_input");
    const pending = await api.pendingApprovals(run.id);
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ id: approval.id, status: "pending", arguments: approval.arguments, preview: approval.preview });
    expect(existsSync(path.join(root, "note.txt"))).toBe(false);
    // The resumed agent answered from its checkpoint: the model was not asked again.
    expect(model.requests).toHaveLength(1);

    await api.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "once" });
    const finished = await api.waitForRun(run.id, undefined, takeoverMs(server));
    expect(finished.status, finished.error).toBe("succeeded");
    expect(finished.output).toBe("The note is written.");
    expect(readFileSync(path.join(root, "note.txt"), "utf8")).toBe("written once");

    expect(model.requests).toHaveLength(2);
    expectTurnOneAskedOnce(model.requests);

    const events = await api.events(run.id);
    expectContiguous(events);
    expect(count(events, "approval-requested")).toBe(1);
    expect(count(events, "approval-decided")).toBe(1);
    expect(count(events, "node-tool-call-finished", (event) => event.payload.tool === "write_file")).toBe(1);
    expect(count(events, "node-succeeded", (event) => event.nodeId === "agent")).toBe(1);
    if (server.provider === "sqlite") {
      // The restarted server resumed the run at once, and it waited on the very same approval.
      expect(count(events, "run-resumed")).toBe(1);
      const resumedAt = events.findIndex((event) => event.type === "run-resumed");
      const waitingAfter = events.slice(resumedAt).filter((event) => event.type === "run-awaiting-input");
      expect(waitingAfter.map((event) => event.payload.approvalId)).toEqual([approval.id]);
    } else {
      // PostgreSQL: the killed worker's job is taken over once its heartbeat lapses. Usually that is after the
      // decision, and the run goes on quietly, as a parked run does (no run-resumed); on a loaded machine the
      // takeover may come first, and the run resumes once, waiting on the very same approval. Either way it asked
      // once (approval-requested above) and wrote once.
      expect(count(events, "run-resumed")).toBeLessThanOrEqual(1);
      const waitingAfterResume = events.slice(Math.max(0, events.findIndex((event) => event.type === "run-resumed"))).filter((event) => event.type === "run-awaiting-input");
      expect(new Set(waitingAfterResume.map((event) => event.payload.approvalId))).toEqual(new Set([approval.id]));
    }
    expect(events.at(-1)!.type).toBe("run-succeeded");
    expect((await api.expect(200, "GET", `/api/approvals?runId=${run.id}`)).approvals).toHaveLength(1);
  }, 90_000);

  it("does not write again or ask turn 1 again when killed after the approval, while the model answers turn 2", async () => {
    const model = await scriptedModel();
    // Turn 2's first answer never comes (the server dies waiting for it); asked again after the restart, it does.
    model.script({ toolCalls: [WRITE_CALL] }, () => new Promise(() => undefined), { text: "The note is written." });
    const root = workFolder();
    const file = path.join(root, "note.txt");
    const { id } = await api.createWorkflow(agentWriteWorkflow("Agent survives a kill after the approval", model.baseUrl, root));
    const run = await api.startRun(id);
    const approval = await api.waitForApproval(run.id);
    await api.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "once" });

    // Turn 2 is asked only after the write's result is checkpointed.
    await waitFor(() => (model.requests.length === 2 ? true : undefined), { what: "the model to be asked turn 2" });
    expect(readFileSync(file, "utf8")).toBe("written once");
    const written = statSync(file);
    expect((await api.getRun(run.id)).status).toBe("running");

    await server.kill("SIGKILL");
    await server.restart();

    const finished = await api.waitForRun(run.id, undefined, takeoverMs(server));
    expect(finished.status, finished.error).toBe("succeeded");
    expect(finished.output).toBe("The note is written.");
    expect(readFileSync(file, "utf8")).toBe("written once");
    // The atomic write renames a new file into place: the same inode and mtime mean no second write.
    const after = statSync(file);
    expect({ ino: after.ino, mtimeMs: after.mtimeMs }).toEqual({ ino: written.ino, mtimeMs: written.mtimeMs });

    // Turn 1, turn 2 (cut off by the kill), turn 2 again: the same conversation, never the task alone.
    expect(model.requests).toHaveLength(3);
    expectTurnOneAskedOnce(model.requests);
    expect(messagesOf(model.requests[2]!)).toEqual(messagesOf(model.requests[1]!));

    const events = await api.events(run.id);
    expectContiguous(events);
    expect(count(events, "run-resumed")).toBe(1);
    expect(count(events, "approval-requested")).toBe(1);
    expect(count(events, "approval-decided")).toBe(1);
    expect(count(events, "node-tool-call-started", (event) => event.payload.tool === "write_file")).toBe(1);
    expect(count(events, "node-tool-call-finished", (event) => event.payload.tool === "write_file")).toBe(1);
    expect(count(events, "node-started", (event) => event.nodeId === "agent")).toBe(2);
    expect(count(events, "node-succeeded", (event) => event.nodeId === "agent")).toBe(1);
    expect(events.at(-1)!.type).toBe("run-succeeded");
    expect((await api.expect(200, "GET", `/api/approvals?runId=${run.id}`)).approvals).toHaveLength(1);
  }, 90_000);
});
