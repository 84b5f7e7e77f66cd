import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { allTools, defaultGuardrails, Tool, ToolPool, ToolResult, type WriteGrant } from "@/lib/tools";
import { AgentNodeSchema, ToolNodeSchema, type AgentNode, type ToolNode } from "../definition";
import { ReadWriteLock } from "../read-write-lock";
import type { ApprovalDecision, ApprovalRecord, ApprovalRequest, RunStore } from "../run-types";
import { runAgentStep, type AgentStepHost } from "./agent-step";
import { scriptedModel, type ScriptedTurn } from "./test-support";

/** A read-only tool that takes a while and counts how many of it run at once. */
class SlowLookupTool extends Tool<{ key: string }> {
  readonly name = "slow_lookup";
  readonly title = "Slow Lookup";
  readonly description = "Look a key up (slowly).";
  readonly inputModel = z.object({ key: z.string() });
  running = 0;
  mostAtOnce = 0;
  override isReadOnly(): boolean {
    return true;
  }
  override async call(args: { key: string }): Promise<ToolResult> {
    this.running += 1;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.running);
    await new Promise((resolve) => setTimeout(resolve, 30));
    this.running -= 1;
    return ToolResult.ok(`value of ${args.key}`);
  }
}

let folder: string;
let slow: SlowLookupTool;
let checkpoints: Map<string, string>;
let events: { type: string; payload: Record<string, unknown> }[];
let requests: ApprovalRequest[];
let answers: { decision: ApprovalDecision; feedback?: string; editedArguments?: Record<string, unknown> }[];

beforeEach(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), "agent-step-"));
  writeFileSync(path.join(folder, "notes.txt"), "hello from the notes\n");
  slow = new SlowLookupTool();
  checkpoints = new Map();
  events = [];
  requests = [];
  answers = [];
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const agent = (overrides: Partial<AgentNode> = {}): AgentNode =>
  AgentNodeSchema.parse({ id: "agent", kind: "agent", provider: "openai_compatible", model: "test", baseUrl: "http://127.0.0.1:1/v1", task: "Summarise the notes.", ...overrides });
const toolNode = (id: string, tool: string, extra: Partial<ToolNode> = {}): ToolNode =>
  ToolNodeSchema.parse({ id, kind: "tool", tool, settings: { root: folder }, ...extra });

function host(model: ReturnType<typeof scriptedModel>, overrides: Partial<AgentStepHost> = {}): AgentStepHost {
  const grants: WriteGrant[] = [];
  const store = {
    loadAgentCheckpoint: async (_runId: string, nodeId: string) => {
      const turns = [...checkpoints.keys()].filter((key) => key.startsWith(`${nodeId}:`)).map((key) => Number(key.split(":")[1]));
      if (turns.length === 0) return null;
      const turn = Math.max(...turns);
      return { turn, messages: checkpoints.get(`${nodeId}:${turn}`)! };
    },
    saveAgentCheckpoint: async (_runId: string, nodeId: string, turn: number, messages: string) => {
      checkpoints.set(`${nodeId}:${turn}`, messages);
    },
    addGrant: async () => undefined,
  } as unknown as RunStore;
  return {
    runId: "run1",
    workflowId: "wf1",
    store,
    pool: new ToolPool([...allTools(), slow]),
    secrets: (name) => (name === "DB_URL" ? `sqlite://${path.join(folder, "app.db")}` : name === "MODEL_KEY" ? "sk-planted-model-key" : undefined),
    workingDirectory: folder,
    mode: "default",
    guardrails: defaultGuardrails(),
    grants,
    persistGrant: async () => undefined,
    lock: new ReadWriteLock(),
    signal: new AbortController().signal,
    scope: () => ({ inputs: {}, nodes: {} }),
    waitFor: async (request) => {
      requests.push(request);
      const answer = answers.shift() ?? { decision: "deny" as const };
      return { ...approvalRecord(request, answer.decision, answer.feedback ?? null), editedArguments: answer.editedArguments ?? null };
    },
    emit: async (type, payload) => {
      events.push({ type, payload });
    },
    modelFactory: () => model,
    ...overrides,
  };
}

function approvalRecord(request: ApprovalRequest, decision: ApprovalDecision, feedback: string | null): ApprovalRecord {
  return {
    ...request,
    effect: request.effect ?? { kind: "text", text: request.preview },
    digest: "",
    id: `approval-${requests.length}`,
    status: decision === "deny" ? "denied" : decision === "answer" ? "answered" : "approved",
    decision,
    feedback,
    decidedBy: { personId: null, name: "tester" },
    decidedAt: new Date().toISOString(),
    createdAt: new Date().toISOString(),
  };
}

/** The tool results the model was sent in its `index`-th request. */
function toolResultsSent(model: ReturnType<typeof scriptedModel>, index: number): { type: string; value: string }[] {
  const prompt = model.doStreamCalls[index]!.prompt;
  return prompt.flatMap((message) =>
    message.role === "tool"
      ? message.content.flatMap((part) => (part.type === "tool-result" ? [part.output as { type: string; value: string }] : []))
      : [],
  );
}

const run = (turns: ScriptedTurn[], node: AgentNode, attached: ToolNode[], overrides: Partial<AgentStepHost> = {}) => {
  const model = scriptedModel(turns);
  return { model, result: runAgentStep(node, attached, host(model, overrides)) };
};

describe("an agent step", () => {
  it("calls a tool, reads its result and answers", async () => {
    const { model, result } = run(
      [{ calls: [{ name: "read_file", input: { path: "notes.txt" } }] }, { text: "The notes say hello." }],
      agent(),
      [toolNode("read", "read_file")],
    );
    const { output } = await result;
    expect(output.content).toBe("The notes say hello.");
    expect(model.doStreamCalls).toHaveLength(2);
    expect(toolResultsSent(model, 1)[0]).toMatchObject({ type: "text", value: expect.stringContaining("hello from the notes") });
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(["node-tool-call-started", "node-tool-call-finished", "node-text-delta"]),
    );
    const text = events.filter((event) => event.type === "node-text-delta").map((event) => event.payload.text).join("");
    expect(text).toBe("The notes say hello.");
    // Each model call's tokens, as the provider reported them, for the run view and the metrics.
    expect(events.filter((event) => event.type === "node-model-usage").map((event) => event.payload)).toEqual([
      expect.objectContaining({ turn: 1, inputTokens: 10, outputTokens: 5 }),
      expect.objectContaining({ turn: 2, inputTokens: 10, outputTokens: 5 }),
    ]);
  });

  it("offers the model only what the tool node leaves open", async () => {
    const { model, result } = run([{ text: "done" }], agent(), [toolNode("write", "write_file", { arguments: { path: "out.txt" } })]);
    await result;
    const tools = model.doStreamCalls[0]!.tools ?? [];
    const write = tools.find((each) => each.name === "write_file") as { inputSchema: { properties: Record<string, unknown> } };
    expect(Object.keys(write.inputSchema.properties)).not.toContain("path");
    expect(Object.keys(write.inputSchema.properties)).toContain("content");
    expect(tools.map((each) => each.name).sort()).toEqual(["ask_user", "finish", "todo", "write_file"]);
    expect(JSON.stringify(tools)).not.toContain(folder);
  });

  it("returns a validation error to the model, which corrects its call", async () => {
    const { model, result } = run(
      [
        { calls: [{ name: "read_file", input: { file: "notes.txt" } }] },
        { calls: [{ name: "read_file", input: { path: "notes.txt" } }] },
        { calls: [{ name: "finish", input: { answer: "Read it." } }] },
      ],
      agent(),
      [toolNode("read", "read_file")],
    );
    expect((await result).output.content).toBe("Read it.");
    expect(toolResultsSent(model, 1)[0]).toMatchObject({ type: "error-text", value: expect.stringContaining("Invalid arguments for `read_file`") });
    expect(toolResultsSent(model, 2)[1]).toMatchObject({ type: "text", value: expect.stringContaining("hello from the notes") });
    expect(model.doStreamCalls).toHaveLength(3);
  });

  it("sends a person's denial with its feedback to the model as an instruction", async () => {
    answers.push({ decision: "deny", feedback: "Write it to summary.md instead." });
    answers.push({ decision: "once" });
    const { model, result } = run(
      [
        { calls: [{ name: "write_file", input: { path: "summary.txt", content: "hi" } }] },
        { calls: [{ name: "write_file", input: { path: "summary.md", content: "hi" } }] },
        { text: "Wrote summary.md." },
      ],
      agent(),
      [toolNode("write", "write_file")],
    );
    await result;
    expect(toolResultsSent(model, 1)[0]).toMatchObject({ type: "error-text", value: expect.stringContaining("The person said: Write it to summary.md instead.") });
    expect(existsSync(path.join(folder, "summary.txt"))).toBe(false);
    expect(readFileSync(path.join(folder, "summary.md"), "utf8")).toBe("hi");
    expect(requests.map((request) => request.key)).toEqual(["agent:1:call_1_0:0", "agent:2:call_2_0:0"]);
    const finished = events.filter((event) => event.type === "node-tool-call-finished");
    expect(finished[0]!.payload).toMatchObject({ isError: true, approvals: [expect.objectContaining({ decision: "deny" })] });
  });

  it("runs the call as a person edited it, and tells the model what they changed", async () => {
    answers.push({ decision: "once", editedArguments: { path: "summary.md", content: "hi, edited" } });
    const { model, result } = run(
      [{ calls: [{ name: "write_file", input: { path: "summary.txt", content: "hi" } }] }, { text: "Wrote it." }],
      agent(),
      [toolNode("write", "write_file")],
    );
    await result;
    expect(existsSync(path.join(folder, "summary.txt"))).toBe(false);
    expect(readFileSync(path.join(folder, "summary.md"), "utf8")).toBe("hi, edited");
    // One approval: the edit is the person's approval of the edited call.
    expect(requests).toHaveLength(1);
    const told = toolResultsSent(model, 1)[0]!;
    expect(told.type).toBe("text");
    expect(told.value).toMatch(/^A person edited this call before approving it; what ran is the edited call, not yours\. Changed: `path` from "summary\.txt" to "summary\.md"; `content` from "hi" to "hi, edited"\./);
    const finished = events.find((event) => event.type === "node-tool-call-finished");
    expect(finished!.payload.content).toMatch(/^A person edited this call/);
  });

  it("carries out the plan as a person edited it", async () => {
    answers.push({ decision: "approve", editedArguments: { plan: "1. Write only edited-plan.txt" } });
    answers.push({ decision: "once" });
    const { model, result } = run(
      [
        { text: "1. Write plan-out.txt" },
        { calls: [{ name: "write_file", input: { path: "edited-plan.txt", content: "x" } }] },
        { calls: [{ name: "finish", input: { answer: "Done." } }] },
      ],
      agent({ mode: "plan" }),
      [toolNode("write", "write_file")],
    );
    expect((await result).output.content).toBe("Done.");
    const sent = model.doStreamCalls[1]!.prompt.filter((message) => message.role === "user").map((message) => JSON.stringify(message.content));
    expect(sent.at(-1)).toContain("The person edited your plan before approving it; carry out this plan, not yours:\\n\\n1. Write only edited-plan.txt");
  });

  it("runs concurrency-safe calls of one turn in parallel", async () => {
    const { result } = run(
      [{ calls: ["a", "b", "c"].map((key) => ({ name: "slow_lookup", input: { key } })) }, { text: "done" }],
      agent(),
      [ToolNodeSchema.parse({ id: "lookup", kind: "tool", tool: "slow_lookup" })],
    );
    await result;
    expect(slow.mostAtOnce).toBe(3);
  });

  it("in plan mode, writes nothing before a person approves the plan", async () => {
    answers.push({ decision: "approve" }); // the plan
    answers.push({ decision: "once" }); // the write
    const target = path.join(folder, "plan-out.txt");
    const writtenWhen: boolean[] = [];
    const { model, result } = run(
      [
        { calls: [{ name: "write_file", input: { path: "plan-out.txt", content: "early" } }] },
        { text: "1. Write plan-out.txt" },
        { calls: [{ name: "write_file", input: { path: "plan-out.txt", content: "approved" } }] },
        { calls: [{ name: "finish", input: { answer: "Done." } }] },
      ],
      agent({ mode: "plan" }),
      [toolNode("write", "write_file")],
      {
        waitFor: async (request) => {
          requests.push(request);
          writtenWhen.push(existsSync(target));
          const answer = answers.shift()!;
          return approvalRecord(request, answer.decision, null);
        },
      },
    );
    expect((await result).output.content).toBe("Done.");
    expect(toolResultsSent(model, 1)[0]).toMatchObject({ type: "error-text", value: expect.stringContaining("Plan mode") });
    expect(requests.map((request) => request.kind)).toEqual(["plan", "write"]);
    expect(requests[0]!.preview).toBe("1. Write plan-out.txt");
    expect(writtenWhen).toEqual([false, false]);
    expect(readFileSync(target, "utf8")).toBe("approved");
  });

  it("resumes from its last checkpoint without asking the model again for turns already done", async () => {
    const failing = scriptedModel([{ calls: [{ name: "read_file", input: { path: "notes.txt" } }] }]);
    let calls = 0;
    // The first process answers one turn, then stops (the model becomes unreachable).
    const firstModel = Object.assign(Object.create(Object.getPrototypeOf(failing)), failing, {
      doStream: async (options: Parameters<typeof failing.doStream>[0]) => {
        calls += 1;
        if (calls > 1) throw new Error("the process stopped");
        return failing.doStream(options);
      },
    }) as typeof failing;
    await expect(runAgentStep(agent(), [toolNode("read", "read_file")], host(firstModel))).rejects.toThrow(/process stopped/);
    expect([...checkpoints.keys()]).toEqual(["agent:1"]);

    const second = scriptedModel([{ calls: [{ name: "finish", input: { answer: "The notes say hello." } }] }]);
    const { output } = await runAgentStep(agent(), [toolNode("read", "read_file")], host(second));
    expect(output.content).toBe("The notes say hello.");
    expect(second.doStreamCalls).toHaveLength(1);
    expect(toolResultsSent(second, 0)[0]).toMatchObject({ value: expect.stringContaining("hello from the notes") });
    expect(output.data).toMatchObject({ turns: 2 });
  });

  it("re-runs only the calls of an interrupted turn that had not finished", async () => {
    // Turn 1 was answered and its first call finished before the process stopped.
    checkpoints.set(
      "agent:1",
      JSON.stringify({
        messages: [
          { role: "user", content: "Summarise the notes." },
          {
            role: "assistant",
            content: [
              { type: "tool-call", toolCallId: "c1", toolName: "slow_lookup", input: { key: "a" } },
              { type: "tool-call", toolCallId: "c2", toolName: "slow_lookup", input: { key: "b" } },
            ],
          },
        ],
        planApproved: true,
        planPending: null,
        pending: {
          calls: [
            { callId: "c1", name: "slow_lookup", input: { key: "a" } },
            { callId: "c2", name: "slow_lookup", input: { key: "b" } },
          ],
          results: { c1: { content: "value of a (before the restart)", isError: false } },
        },
        answer: null,
      }),
    );
    const { model, result } = run([{ text: "done" }], agent(), [ToolNodeSchema.parse({ id: "lookup", kind: "tool", tool: "slow_lookup" })]);
    await result;
    expect(events.filter((event) => event.type === "node-tool-call-started").map((event) => event.payload.callId)).toEqual(["c2"]);
    expect(toolResultsSent(model, 0).map((output) => output.value)).toEqual(["value of a (before the restart)", "value of b"]);
  });

  it("never sends a stored secret to the model", async () => {
    const { model, result } = run(
      [{ calls: [{ name: "sql", input: { operation: "test_connection" } }] }, { text: "Connected." }],
      agent({ apiKey: "${MODEL_KEY}" }),
      [ToolNodeSchema.parse({ id: "db", kind: "tool", tool: "sql", arguments: { dsn: "${DB_URL}" } })],
    );
    await result;
    const sent = JSON.stringify(model.doStreamCalls);
    expect(sent).not.toContain(path.join(folder, "app.db"));
    expect(sent).not.toContain("sk-planted-model-key");
    expect(JSON.stringify(events)).not.toContain(path.join(folder, "app.db"));
  });

  it("fails with a clear message when its turns run out", async () => {
    const { result } = run(
      [{ calls: [{ name: "todo", input: { items: [] } }] }, { calls: [{ name: "todo", input: { items: [] } }] }],
      agent({ maxTurns: 2 }),
      [],
    );
    await expect(result).rejects.toThrow(/used all its 2 turns/);
  });
});
