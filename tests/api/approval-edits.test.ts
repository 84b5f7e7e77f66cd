import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient, Json } from "./api-client";
import { chain, edge, removeWorkFolders, shellNode, workFolder } from "./fixtures";
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from "../support/scripted-openai-server";
import { invitePerson } from "./people-fixtures";
import { setupStudioServer } from "./studio-server";

/**
 * "Edit and approve" over HTTP: a person changes a shell step's command
 * before approving it. A bad edit is a 422 naming the field and decides
 * nothing; a good one runs the edited command (a real file says so), is
 * stored on the approval, told in the step's output, the run's timeline and
 * the security log, and survives a restart of the server while it waits.
 */

const server = setupStudioServer();
let api: ApiClient;
let folder: string;

async function waitingShellRun(name: string, command: string, shared = false, approvals?: Json): Promise<{ runId: string; approval: Json }> {
  const shell = { ...shellNode("shell", folder, command), ...(approvals ? { approvals } : {}) };
  const workflow = { name, nodes: [{ id: "in", kind: "input" }, shell, { id: "out", kind: "output", value: "x" }], edges: chain("in", "shell", "out") };
  const workflowId = (await api.expect(201, "POST", "/api/workflows", workflow)).workflow.id as string;
  if (shared) await api.expect(200, "PUT", `/api/workflows/${workflowId}/shares`, { shares: [{ subject: { role: "approver" }, role: "approver" }] });
  const runId = (await api.expect(201, "POST", `/api/workflows/${workflowId}/runs`, { inputs: {} })).run.id as string;
  return { runId, approval: await api.waitForApproval(runId) };
}

const written = (file: string) => (existsSync(path.join(folder, file)) ? readFileSync(path.join(folder, file), "utf8").trim() : null);

describe("approve with edits", { timeout: 120_000 }, () => {
  beforeAll(() => {
    api = server.client();
    folder = workFolder("studio-edits-");
  });

  afterAll(() => removeWorkFolders());

  it("refuses an edit that fails the tool's input model, naming each field, and decides nothing", async () => {
    const { runId, approval } = await waitingShellRun("Bad edit", "echo proposed > bad.txt");
    const before = await api.counts();
    const refused = await api.post(`/api/approvals/${approval.id}`, {
      decision: "approve",
      digest: approval.digest,
      arguments: { operation: "run", command: 42, timeoutSeconds: "soon" },
    });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.issues).toEqual([
      expect.objectContaining({ path: "arguments.command", message: expect.stringMatching(/expected string/) }),
      expect.objectContaining({ path: "arguments.timeoutSeconds", message: expect.stringMatching(/expected number/) }),
    ]);
    expect(await api.counts()).toEqual(before);
    expect((await api.expect(200, "GET", `/api/approvals/${approval.id}`)).approval).toMatchObject({ status: "pending", editedArguments: null });
    // An edit rides only on an approval: a denial with one is refused too.
    const denied = await api.post(`/api/approvals/${approval.id}`, { decision: "deny", arguments: { operation: "run", command: "true" } });
    expect(denied.status).toBe(422);
    expect(denied.body.issues[0]).toMatchObject({ path: "arguments" });
    // A plan's text is no command's edit.
    const plan = await api.post(`/api/approvals/${approval.id}`, { decision: "approve", plan: "1. Something else" });
    expect(plan.status).toBe(422);
    expect(plan.body.issues[0]).toMatchObject({ path: "plan" });
    await api.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "deny" });
    await api.waitForRun(runId);
    expect(written("bad.txt")).toBeNull();
  });

  it("runs the edited command, stores the edit, and says so in the step's output, the timeline and the security log", async () => {
    const { runId, approval } = await waitingShellRun("Good edit", "echo proposed > proposed.txt");
    expect(approval.arguments).toEqual({ command: "echo proposed > proposed.txt", operation: "run" });
    const decided = await api.expect(200, "POST", `/api/approvals/${approval.id}`, {
      decision: "approve",
      digest: approval.digest,
      arguments: { ...approval.arguments, command: "echo approved > approved.txt" },
    });
    expect(decided.approval).toMatchObject({ status: "approved", editedArguments: { operation: "run", command: "echo approved > approved.txt" } });

    const finished = await api.waitForRun(runId);
    expect(finished.status).toBe("succeeded");
    expect(written("approved.txt")).toBe("approved");
    expect(written("proposed.txt")).toBeNull();
    const step = finished.steps.find((each: Json) => each.nodeId === "shell");
    expect(step.input).toMatchObject({ command: "echo approved > approved.txt" });
    expect(step.output.edited).toEqual([{ field: "command", from: "echo proposed > proposed.txt", to: "echo approved > approved.txt" }]);

    const events = await api.events(runId);
    const decidedEvent = events.find((event) => event.type === "approval-decided") as Json;
    expect(decidedEvent.payload.approval.editedArguments).toEqual({ operation: "run", command: "echo approved > approved.txt" });

    const log: Json[] = (await api.expect(200, "GET", `/api/audit?action=approval-decided`)).entries;
    expect(log.find((entry) => entry.target === approval.id)?.detail).toMatchObject({ decision: "approve", edited: ["command"] });
  });

  it("keeps a waiting run across a kill, and runs the edit decided after the restart", async () => {
    const { runId, approval } = await waitingShellRun("Edit after a restart", "echo proposed > before-kill.txt");
    await api.waitForRun(runId, ["awaiting_input"]);
    await server.kill("SIGKILL");
    await server.restart();
    await api.waitForRun(runId, ["awaiting_input"]);
    await api.expect(200, "POST", `/api/approvals/${approval.id}`, {
      decision: "approve",
      arguments: { ...approval.arguments, command: "echo edited > after-restart.txt" },
    });
    expect((await api.waitForRun(runId)).status).toBe("succeeded");
    expect(written("after-restart.txt")).toBe("edited");
    expect(written("before-kill.txt")).toBeNull();
  });

  it("takes an edit from a person's agent client through the decide_approval MCP tool, and refuses a bad one naming the field", async () => {
    const eve = await invitePerson(api, "eve", "approver");
    const { token } = await eve.client.expect(201, "POST", "/api/me/tokens", { name: "agent", scopes: ["approval:decide"], expiresInDays: 1 });
    const { runId, approval } = await waitingShellRun("Edited from an agent", "echo proposed > mcp-proposed.txt", true);
    const agent = new Client({ name: "approver-agent", version: "1.0.0" });
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    try {
      const listed = await agent.callTool({ name: "list_pending_approvals", arguments: {} });
      const waiting = (listed.structuredContent as { approvals: Json[] }).approvals.find((each) => each.approvalId === approval.id)!;
      expect(waiting.arguments).toEqual(approval.arguments);
      const decide = (edit: Json) => agent.callTool({ name: "decide_approval", arguments: { approvalId: approval.id, decision: "approve", digest: waiting.digest, arguments: edit } });
      const bad = await decide({ ...waiting.arguments, command: "" });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toMatch(/arguments\.command: give the command to run/);
      const good = await decide({ ...waiting.arguments, command: "echo agent > mcp-edited.txt" });
      expect(good.isError, JSON.stringify(good.content)).toBeFalsy();
      expect(JSON.stringify(good.content)).toContain("The approval is now approved, with your edit.");
    } finally {
      await agent.close();
    }
    expect((await api.waitForRun(runId)).status).toBe("succeeded");
    expect(written("mcp-edited.txt")).toBe("agent");
    expect(written("mcp-proposed.txt")).toBeNull();
  });

  it("takes an edit only with the approval that decides, when two people must approve", async () => {
    const [gus, hal] = [await invitePerson(api, "gus", "approver"), await invitePerson(api, "hal", "approver")];
    const { runId, approval } = await waitingShellRun("Two approve an edit", "echo proposed > two-proposed.txt", true, { required: 2 });
    const edit = { ...approval.arguments, command: "echo edited > two-edited.txt" };
    const early = await gus.client.post(`/api/approvals/${approval.id}`, { decision: "approve", digest: approval.digest, arguments: edit });
    expect(early.status).toBe(409);
    expect(early.body.error).toMatch(/An edit can only come with the approval that decides this one/);
    expect((await gus.client.post(`/api/approvals/${approval.id}`, { decision: "approve", digest: approval.digest })).body.approval.status).toBe("pending");
    const last = await hal.client.post(`/api/approvals/${approval.id}`, { decision: "approve", digest: approval.digest, arguments: edit });
    expect(last.status, last.text).toBe(200);
    expect(last.body.approval).toMatchObject({ status: "approved", editedArguments: edit });
    expect((await api.waitForRun(runId)).status).toBe("succeeded");
    expect(written("two-edited.txt")).toBe("edited");
    expect(written("two-proposed.txt")).toBeNull();
  });

  it("tells an agent its call was edited, and steers it with a denial's answer to another call", async () => {
    const model: ScriptedOpenAIServer = await startScriptedOpenAIServer();
    try {
      await api.expect(201, "POST", "/api/secrets", { name: "EDITS_MODEL_KEY", value: "sk-edits-model-key" });
      const said = (body: Record<string, unknown>) => JSON.stringify(body.messages);
      model.script(
        { toolCalls: [{ name: "write_file", arguments: { path: "draft.txt", content: "first" } }] },
        // The model follows the person's answer when it reads it, and would try the same call again otherwise.
        (body) => ({ toolCalls: [{ name: "write_file", arguments: said(body).includes("Write it to notes.md instead.") ? { path: "notes.md", content: "second" } : { path: "draft.txt", content: "first" } }] }),
        { text: "Done." },
      );
      const workflow = {
        name: "Agent steered and edited",
        mode: "default",
        nodes: [
          { id: "in", kind: "input" },
          { id: "agent", kind: "agent", provider: "openai_compatible", model: "scripted-model", baseUrl: model.baseUrl, apiKey: "${EDITS_MODEL_KEY}", task: "Write the notes.", maxTurns: 5 },
          { id: "write", kind: "tool", tool: "write_file", settings: { root: folder } },
          { id: "out", kind: "output", value: "{{ nodes.agent.output }}" },
        ],
        edges: [edge("in", "agent"), edge("write", "agent"), edge("agent", "out")],
      };
      const workflowId = (await api.expect(201, "POST", "/api/workflows", workflow)).workflow.id as string;
      const runId = (await api.expect(201, "POST", `/api/workflows/${workflowId}/runs`, { inputs: {} })).run.id as string;

      const first = await api.waitForApproval(runId);
      expect(first.arguments).toEqual({ path: "draft.txt", content: "first" });
      await api.expect(200, "POST", `/api/approvals/${first.id}`, { decision: "deny", feedback: "Write it to notes.md instead." });

      const second = await api.waitForApproval(runId);
      expect(second.arguments).toEqual({ path: "notes.md", content: "second" });
      await api.expect(200, "POST", `/api/approvals/${second.id}`, { decision: "once", arguments: { path: "notes.md", content: "second, edited" } });

      expect((await api.waitForRun(runId)).status).toBe("succeeded");
      expect(written("draft.txt")).toBeNull();
      expect(written("notes.md")).toBe("second, edited");
      expect(said(model.requests[1]!.body)).toContain("The person denied writing \\\"draft.txt\\\". The person said: Write it to notes.md instead.");
      expect(said(model.requests[2]!.body)).toContain('Changed: `content` from \\\"second\\\" to \\\"second, edited\\\".');
      expect(said(model.requests[2]!.body)).toContain("A person edited this call before approving it; what ran is the edited call, not yours.");
    } finally {
      await model.close();
    }
  });
});
