import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { allTools, secretsFromRecord, Tool, ToolPool, ToolResult, type ToolContext } from "@/lib/tools";
import { createWorkflow } from "@/lib/persistence";
import { createRun, getRunDetail, readEvents } from "@/lib/persistence/run-queries";
import { PrismaRunStore } from "@/lib/persistence/run-store";
import { openTempDatabase, type TempDatabase } from "@/lib/persistence/temp-database";
import type { WorkflowDefinitionInput } from "@/lib/workflow/definition";
import { RunEventBus } from "@/lib/workflow/event-bus";
import { INTERRUPTED, RunEngine } from "@/lib/workflow/run-engine";
import type { ApprovalRecord, RunEvent } from "@/lib/workflow/run-types";

/** Counts its calls in a file, so a test can tell whether a step ran again. */
class CountingTool extends Tool<{ label: string; token?: string }> {
  name = "count";
  title = "Count calls";
  description = "Appends its label to calls.log.";
  inputModel = z.object({ label: z.string(), token: z.string().optional() });
  secretInputs = ["token"];
  credentialHelp = "Any token. Store it in Settings → Secrets and reference it as ${NAME}.";
  constructor(private readonly logFile: string) {
    super();
  }
  override isReadOnly(): boolean {
    return true;
  }
  override async call(args: { label: string; token?: string }, ctx: ToolContext): Promise<ToolResult> {
    const { appendFileSync } = await import("node:fs");
    appendFileSync(this.logFile, `${args.label}\n`);
    ctx.events.emit({ type: "tool-progress", tool: this.name, message: `counting with ${args.token ?? "no token"}` });
    return ToolResult.ok(`counted ${args.label} using ${args.token ?? "nothing"}`, { label: args.label });
  }
}

let temp: TempDatabase;
let workRoot: string;
let logFile: string;
let engine: RunEngine;
let bus: RunEventBus;
let store: PrismaRunStore;
const secrets = secretsFromRecord({ API_TOKEN: "tok-very-secret-4242" });

function newEngine(): RunEngine {
  return new RunEngine({
    store,
    bus,
    pool: () => new ToolPool([...allTools(), new CountingTool(logFile)]),
    secrets,
    workingDirectory: workRoot,
  });
}

beforeAll(async () => {
  temp = await openTempDatabase();
  workRoot = realpathSync(mkdtempSync(path.join(os.tmpdir(), "engine-work-")));
  logFile = path.join(workRoot, "calls.log");
  bus = new RunEventBus();
  store = new PrismaRunStore(temp.database);
  engine = newEngine();
});

afterAll(async () => {
  await engine.idle();
  await temp.close();
});

async function startRun(definition: WorkflowDefinitionInput, inputs: Record<string, unknown> = {}) {
  const workflow = await createWorkflow(definition, temp.database);
  const { runId } = await createRun(workflow.id, inputs, {}, temp.database);
  await engine.start(runId);
  return { runId, workflowId: workflow.id };
}

/** Resolves with the first event of `type` of the run (already published or future). */
function nextEvent<Type extends RunEvent["type"]>(runId: string, type: Type): Promise<Extract<RunEvent, { type: Type }>> {
  return new Promise((resolve) => {
    const unsubscribe = bus.subscribe(runId, (event) => {
      if (event.type === type) {
        unsubscribe();
        resolve(event as Extract<RunEvent, { type: Type }>);
      }
    });
  });
}

const writeWorkflow = (mode: "default" | "bypass" | "plan", file: string, content = "hello {{ inputs.name }}"): WorkflowDefinitionInput => ({
  name: `write ${file}`,
  mode,
  nodes: [
    { id: "in", kind: "input", fields: [{ name: "name" }] },
    { id: "write", kind: "tool", tool: "write_file", settings: { root: workRoot }, arguments: { path: file, content } },
    { id: "out", kind: "output", value: "{{ nodes.write.output }}" },
  ],
  edges: [
    { id: "a", source: "in", target: "write" },
    { id: "b", source: "write", target: "out" },
  ],
});

describe("RunEngine on a real SQLite file", () => {
  it("runs a linear workflow, persisting steps and a gap-free event sequence", async () => {
    const { runId } = await startRun(writeWorkflow("bypass", "bypass.txt"), { name: "Ada" });
    await engine.settled(runId);
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status).toBe("succeeded");
    expect(readFileSync(path.join(workRoot, "bypass.txt"), "utf8")).toBe("hello Ada");
    expect(detail.steps.map((step) => [step.nodeId, step.status])).toEqual([
      ["in", "succeeded"],
      ["write", "succeeded"],
      ["out", "succeeded"],
    ]);
    expect(detail.steps[1]?.input).toEqual({ path: "bypass.txt", content: "hello Ada" });
    const events = await readEvents(runId, 0, 1000, temp.database);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(events.map((event) => event.type)).toEqual([
      "run-started",
      "node-started",
      "node-succeeded",
      "node-started",
      "node-progress",
      "node-succeeded",
      "node-started",
      "node-succeeded",
      "run-succeeded",
    ]);
    expect(detail.lastSeq).toBe(events.length);
    expect(String(detail.output)).toMatch(/bypass\.txt/);
  });

  it("starts a read-only step before its start is stored, and a step that may change the world only once its start is stored", async () => {
    // A store that holds back the commit saying the read step started (and whatever shares it) until the test lets it through.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding = false;
    const heldStore = Object.create(store) as PrismaRunStore;
    heldStore.commit = async (runId, commit) => {
      if (commit.events.some((event) => event.type === "node-started" && event.nodeId === "read")) {
        holding = true;
        await released;
      }
      return store.commit(runId, commit);
    };
    const heldEngine = new RunEngine({ store: heldStore, bus, pool: () => new ToolPool([...allTools(), new CountingTool(logFile)]), secrets, workingDirectory: workRoot });
    const workflow = await createWorkflow(
      {
        name: "start before stored",
        mode: "bypass",
        nodes: [
          { id: "in", kind: "input", fields: [] },
          { id: "read", kind: "tool", tool: "count", arguments: { label: "counted while its start was held" } },
          { id: "write", kind: "tool", tool: "write_file", settings: { root: workRoot }, arguments: { path: "held.txt", content: "{{ nodes.read.output }}" } },
        ],
        edges: [
          { id: "a", source: "in", target: "read" },
          { id: "b", source: "read", target: "write" },
        ],
      },
      temp.database,
    );
    const { runId } = await createRun(workflow.id, {}, {}, temp.database);
    // Not awaited: the run's first commit may carry the read step's start, and that is held.
    const starting = heldEngine.start(runId);
    // The read-only step's start is held back, yet its tool runs: its result waits behind the start in the run's writer.
    await expect.poll(() => holding && existsSync(logFile) && readFileSync(logFile, "utf8").includes("counted while its start was held")).toBe(true);
    // The write's start cannot be stored while the commit before it is held, so nothing may be written yet. (A bounded
    // look: had the engine not waited, the file would appear at once; a slow machine can only miss a fault, never invent one.)
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(existsSync(path.join(workRoot, "held.txt"))).toBe(false);
    release();
    await starting;
    await heldEngine.settled(runId);
    expect((await getRunDetail(runId, temp.database)).status).toBe("succeeded");
    expect(readFileSync(path.join(workRoot, "held.txt"), "utf8")).toMatch(/counted while its start was held/);
  });

  it("waits for a person on a write, then writes once approved", async () => {
    const requested = new Promise<RunEvent>((resolve) => {
      const unsubscribe = bus.subscribeAll((event) => {
        if (event.type === "approval-requested") {
          unsubscribe();
          resolve(event);
        }
      });
    });
    const { runId } = await startRun(writeWorkflow("default", "approved.txt"), { name: "Grace" });
    const event = await requested;
    const approval = (event.payload as { approval: { id: string; kind: string; preview: string } }).approval;
    expect(approval.kind).toBe("write");
    expect(approval.preview).toContain("+hello Grace");
    expect(existsSync(path.join(workRoot, "approved.txt"))).toBe(false);
    expect((await getRunDetail(runId, temp.database)).status).toBe("awaiting_input");

    const decided = await engine.decide(approval.id, { decision: "once", feedback: null, decidedBy: "tester" });
    expect(decided?.changed).toBe(true);
    // A second decision changes nothing.
    expect((await engine.decide(approval.id, { decision: "deny", feedback: null, decidedBy: "tester" }))?.changed).toBe(false);
    await engine.settled(runId);
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status).toBe("succeeded");
    expect(readFileSync(path.join(workRoot, "approved.txt"), "utf8")).toBe("hello Grace");
    expect(detail.approvals).toMatchObject([{ status: "approved", decision: "once", decidedBy: { personId: null, name: "tester" } }]);
  });

  it("fails the node with the person's reason when a write is denied", async () => {
    const requested = nextEventOfAnyRun("approval-requested");
    const { runId } = await startRun(writeWorkflow("default", "denied.txt"), { name: "x" });
    const approval = ((await requested).payload as { approval: { id: string } }).approval;
    await engine.decide(approval.id, { decision: "deny", feedback: "wrong folder, use drafts/", decidedBy: null });
    await engine.settled(runId);
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status).toBe("failed");
    expect(detail.steps.find((step) => step.nodeId === "write")).toMatchObject({
      status: "failed",
      error: expect.stringContaining("wrong folder, use drafts/"),
    });
    expect(detail.steps.find((step) => step.nodeId === "out")?.status).toBe("skipped");
    expect(detail.error).toMatch(/^Write a File failed: The person denied writing "denied.txt"/);
    expect(existsSync(path.join(workRoot, "denied.txt"))).toBe(false);
  });

  it("cancels a waiting run, announcing its withdrawn approval before the run-cancelled event", async () => {
    const requested = nextEventOfAnyRun("approval-requested");
    const { runId } = await startRun(writeWorkflow("default", "cancelled.txt"), { name: "x" });
    const approval = (await requested).payload.approval as { id: string };
    expect(await engine.cancel(runId, "tester")).toBe(true);
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status).toBe("cancelled");
    expect(detail.approvals).toMatchObject([{ status: "cancelled" }]);
    expect(existsSync(path.join(workRoot, "cancelled.txt"))).toBe(false);
    expect(await engine.cancel(runId)).toBe(false);

    const events = await readEvents(runId, 0, 1000, temp.database);
    const decided = events.findIndex((event) => event.type === "approval-decided");
    const cancelled = events.findIndex((event) => event.type === "run-cancelled");
    expect(events[decided]).toMatchObject({ nodeId: "write", payload: { approval: { id: approval.id, status: "cancelled" } } });
    expect(decided).toBeGreaterThan(-1);
    expect(decided).toBeLessThan(cancelled);
    expect(events.filter((event) => event.type === "approval-decided")).toHaveLength(1);
  });

  it("stores a write approval naming the confined path relative to the step's folder", async () => {
    const requested = nextEventOfAnyRun("approval-requested");
    const { runId } = await startRun(writeWorkflow("default", `${workRoot}/drafts/../reports/q3.md`), { name: "x" });
    const approval = (await requested).payload.approval as { id: string; kind: string; effect: { kind: string; path: string } };
    expect(approval.kind).toBe("write");
    expect(approval.effect).toMatchObject({ kind: "file-change", path: "reports/q3.md" });
    await engine.cancel(runId);
  });

  it("asks for the plan first in plan mode, and writes nothing when it is rejected", async () => {
    const requested = nextEventOfAnyRun("approval-requested");
    const { runId } = await startRun(writeWorkflow("plan", "planned.txt"), { name: "x" });
    const approval = ((await requested).payload as { approval: { id: string; kind: string; preview: string } }).approval;
    expect(approval.kind).toBe("plan");
    expect(approval.preview).toContain("Write a File");
    await engine.decide(approval.id, { decision: "deny", feedback: "not today", decidedBy: null });
    await engine.settled(runId);
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status).toBe("failed");
    expect(detail.error).toContain("not today");
    expect(existsSync(path.join(workRoot, "planned.txt"))).toBe(false);
  });

  it("follows the chosen route and skips the other branch", async () => {
    const { runId } = await startRun(
      {
        name: "route",
        mode: "bypass",
        nodes: [
          { id: "in", kind: "input", fields: [{ name: "size", type: "number" }] },
          { id: "r", kind: "router", routes: [{ id: "big", value: "{{ inputs.size }}", operator: "greater_than", compareTo: "10" }] },
          { id: "big", kind: "tool", tool: "count", arguments: { label: "big" } },
          { id: "small", kind: "tool", tool: "count", arguments: { label: "small" } },
          { id: "out", kind: "output", value: "{{ nodes.big.output }}{{ nodes.small.output }}" },
        ],
        edges: [
          { id: "1", source: "in", target: "r" },
          { id: "2", source: "r", target: "big", sourceHandle: "big" },
          { id: "3", source: "r", target: "small", sourceHandle: "default" },
          { id: "4", source: "big", target: "out" },
          { id: "5", source: "small", target: "out" },
        ],
      },
      { size: 42 },
    );
    await engine.settled(runId);
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status).toBe("succeeded");
    expect(Object.fromEntries(detail.steps.map((step) => [step.nodeId, step.status]))).toEqual({
      in: "succeeded",
      r: "succeeded",
      big: "succeeded",
      small: "skipped",
      out: "succeeded",
    });
  });

  it("resumes an interrupted run without running finished steps again", async () => {
    const definition: WorkflowDefinitionInput = {
      name: "resume",
      mode: "bypass",
      nodes: [
        { id: "first", kind: "tool", tool: "count", arguments: { label: "first" } },
        { id: "second", kind: "tool", tool: "count", arguments: { label: "second" } },
      ],
      edges: [{ id: "1", source: "first", target: "second" }],
    };
    const workflow = await createWorkflow(definition, temp.database);
    const { runId } = await createRun(workflow.id, {}, {}, temp.database);
    // The state a SIGKILL leaves: `first` finished, `second` was running.
    await leaveAsKilled(runId, "first");
    const before = existsSync(logFile) ? readFileSync(logFile, "utf8") : "";
    const restarted = newEngine();
    expect(await restarted.resumeAll()).toContain(runId);
    await restarted.settled(runId);
    const calls = readFileSync(logFile, "utf8").slice(before.length);
    expect(calls).toBe("second\n");
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status).toBe("succeeded");
    expect(detail.steps.find((step) => step.nodeId === "second")?.attempt).toBe(2);
    const events = await readEvents(runId, 0, 1000, temp.database);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(events[2]?.type).toBe("run-resumed");
  });

  it("does not run again a step that changes the world and was cut off while it ran: it fails as interrupted, at most once", async () => {
    const definition: WorkflowDefinitionInput = {
      name: "interrupted write",
      mode: "bypass",
      nodes: [
        { id: "first", kind: "tool", tool: "count", arguments: { label: "first" } },
        { id: "second", kind: "tool", tool: "write_file", settings: { root: workRoot }, arguments: { path: "interrupted.txt", content: "once" } },
        { id: "third", kind: "tool", tool: "count", arguments: { label: "third" } },
      ],
      edges: [
        { id: "1", source: "first", target: "second" },
        { id: "2", source: "second", target: "third" },
      ],
    };
    const workflow = await createWorkflow(definition, temp.database);
    const { runId } = await createRun(workflow.id, {}, {}, temp.database);
    // The state a SIGKILL leaves while the write runs: it may or may not have happened.
    await leaveAsKilled(runId, "second");
    const restarted = newEngine();
    expect(await restarted.resumeAll()).toContain(runId);
    await restarted.settled(runId);
    expect(existsSync(path.join(workRoot, "interrupted.txt"))).toBe(false);
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status).toBe("failed");
    expect(detail.error).toContain("Interrupted by a restart");
    expect(detail.steps.find((step) => step.nodeId === "second")).toMatchObject({ status: "failed", attempt: 1, error: INTERRUPTED });
    expect(detail.steps.find((step) => step.nodeId === "third")?.status).toBe("skipped");
    const events = await readEvents(runId, 0, 1000, temp.database);
    expect(events.slice(2, 4).map((event) => [event.type, event.nodeId])).toEqual([
      ["run-resumed", null],
      ["node-failed", "second"],
    ]);
    expect(events.filter((event) => event.type === "node-started" && event.nodeId === "second")).toHaveLength(1);
  });

  it("a step cut off after its approval was stored but before it was announced waits again on that approval, rather than failing as interrupted", async () => {
    const definition: WorkflowDefinitionInput = {
      name: "asked, then killed",
      mode: "default",
      nodes: [
        { id: "first", kind: "tool", tool: "count", arguments: { label: "first" } },
        { id: "second", kind: "tool", tool: "write_file", settings: { root: workRoot }, arguments: { path: "asked-then-killed.txt", content: "once" } },
      ],
      edges: [{ id: "1", source: "first", target: "second" }],
    };
    const workflow = await createWorkflow(definition, temp.database);
    const { runId } = await createRun(workflow.id, {}, {}, temp.database);
    // What a SIGKILL leaves when it comes between storing a step's approval and announcing it: the step still says
    // "running", and its approval is pending.
    await leaveAsKilled(runId, "second");
    await store.openApproval({
      runId,
      nodeId: "second",
      key: "second:0",
      kind: "write",
      tool: "write_file",
      operation: null,
      arguments: { path: "asked-then-killed.txt", content: "once" },
      preview: "+once",
      digest: "stored-before-the-kill",
    });
    const restarted = newEngine();
    const waitingAgain = nextEvent(runId, "run-awaiting-input");
    expect(await restarted.resumeAll()).toContain(runId);
    await waitingAgain;
    const waiting = await getRunDetail(runId, temp.database);
    expect(waiting.status).toBe("awaiting_input");
    expect(waiting.steps.find((step) => step.nodeId === "second")).toMatchObject({ status: "waiting", error: null });
    expect(waiting.approvals.filter((approval) => approval.status === "pending").map((approval) => approval.nodeId)).toEqual(["second"]);
    // The same start goes on (its attempt, its one node-started), not a second start of the step.
    const startsOfSecond = (await readEvents(runId, 0, 1000, temp.database)).filter((event) => event.type === "node-started" && event.nodeId === "second");
    expect(startsOfSecond.map((event) => event.payload)).toEqual([{ kind: "tool", attempt: 1 }]);
    expect(existsSync(path.join(workRoot, "asked-then-killed.txt"))).toBe(false);
    await restarted.cancel(runId, null);
  });

  it("a replayed step whose target changed does not inherit the old answer: it asks again about the file as it is", async () => {
    const target = path.join(workRoot, "replayed.txt");
    writeFileSync(target, "v1\n");
    // The first process "dies" right after announcing the approval: its store never answers again.
    const deadStore = Object.assign(Object.create(store) as PrismaRunStore, { getApproval: () => new Promise<never>(() => {}) });
    const first = new RunEngine({ store: deadStore, bus, pool: () => new ToolPool(allTools()), secrets, workingDirectory: workRoot });
    const workflow = await createWorkflow(writeWorkflow("default", "replayed.txt", "mine\n"), temp.database);
    const { runId } = await createRun(workflow.id, { name: "Ada" }, {}, temp.database);
    const firstAsked = nextEvent(runId, "approval-requested");
    await first.start(runId);
    const old = ((await firstAsked).payload as { approval: ApprovalRecord }).approval;
    expect(old.digest).toMatch(/^sha256:/);
    expect(old.effect).toMatchObject({ kind: "file-change", added: 1, removed: 1 });

    // Meanwhile the approval is decided and the file edited.
    await store.decideApproval(old.id, { decision: "once", feedback: null, decidedBy: "tester" });
    writeFileSync(target, "someone else's v2\n");
    const askedAgain = new Promise<ApprovalRecord>((resolve) => {
      const unsubscribe = bus.subscribe(runId, (event) => {
        const approval = (event.payload as { approval?: ApprovalRecord }).approval;
        if (event.type === "approval-requested" && approval && approval.id !== old.id) {
          unsubscribe();
          resolve(approval);
        }
      });
    });
    const restarted = newEngine();
    expect(await restarted.resumeAll()).toContain(runId);
    const fresh = await askedAgain;
    expect(fresh.digest).not.toBe(old.digest);
    expect(fresh.preview).toBe(`replayed.txt: +1 −1\n(in ${workRoot})\n-someone else's v2\n+mine`);
    expect(readFileSync(target, "utf8")).toBe("someone else's v2\n");

    await restarted.decide(fresh.id, { decision: "once", feedback: null, decidedBy: "tester" });
    await restarted.settled(runId);
    expect(readFileSync(target, "utf8")).toBe("mine\n");
    expect((await getRunDetail(runId, temp.database)).status).toBe("succeeded");
  });

  // 200 runs on a real file: a loaded 2-core machine needs more than the default 30 s.
  it("finishes 200 runs waiting for approval at once, decided in random order", { timeout: 180_000 }, async () => {
    const workflow = await createWorkflow(writeWorkflow("default", "many/{{ inputs.name }}.txt", "run {{ inputs.name }}"), temp.database);
    const requested = new Map<string, string>();
    const unsubscribe = bus.subscribeAll((event) => {
      if (event.type === "approval-requested") requested.set(event.runId, event.payload.approval.id);
    });
    const runIds: string[] = [];
    for (let index = 0; index < 200; index += 1) {
      const { runId } = await createRun(workflow.id, { name: `n${index}` }, {}, temp.database);
      runIds.push(runId);
      await engine.start(runId);
    }
    await expect.poll(() => requested.size, { timeout: 30_000 }).toBe(200);
    unsubscribe();
    // Deny every seventh, approve the rest, in a shuffled order.
    const order = [...runIds].sort(() => Math.random() - 0.5);
    await Promise.all(
      order.map((runId) => {
        const index = runIds.indexOf(runId);
        const decision = index % 7 === 0 ? "deny" : index % 2 === 0 ? "always" : "once";
        return engine.decide(requested.get(runId)!, { decision, feedback: null, decidedBy: "tester" });
      }),
    );
    await Promise.all(runIds.map((runId) => engine.settled(runId)));
    for (const [index, runId] of runIds.entries()) {
      const detail = await getRunDetail(runId, temp.database);
      const file = path.join(workRoot, "many", `n${index}.txt`);
      if (index % 7 === 0) {
        expect(detail.status, runId).toBe("failed");
        expect(existsSync(file)).toBe(false);
      } else {
        expect(detail.status, runId).toBe("succeeded");
        expect(readFileSync(file, "utf8")).toBe(`run n${index}`);
      }
      const events = await readEvents(runId, 0, 1000, temp.database);
      expect(events.map((event) => event.seq)).toEqual(events.map((_, position) => position + 1));
    }
  });

  it("hands the tool the secret and keeps it out of steps and events", async () => {
    const { runId } = await startRun({
      name: "secret",
      mode: "bypass",
      nodes: [{ id: "c", kind: "tool", tool: "count", arguments: { label: "s", token: "${API_TOKEN}" } }],
      edges: [],
    });
    await engine.settled(runId);
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status).toBe("succeeded");
    const stored = JSON.stringify(detail) + JSON.stringify(await readEvents(runId, 0, 1000, temp.database));
    expect(stored).not.toContain("tok-very-secret-4242");
    expect(stored).toContain("counted s using ••••••");
    expect(readFileSync(temp.filePath!).includes("tok-very-secret-4242")).toBe(false);
  });
});

function nextEventOfAnyRun<Type extends RunEvent["type"]>(type: Type): Promise<Extract<RunEvent, { type: Type }>> {
  return new Promise((resolve) => {
    const unsubscribe = bus.subscribeAll((event) => {
      if (event.type === type) {
        unsubscribe();
        resolve(event as Extract<RunEvent, { type: Type }>);
      }
    });
  });
}

void nextEvent;

/**
 * Writes what a SIGKILL leaves behind: step `first` finished, step `second`
 * running, and the run's events up to `node-started` of `startedNode`.
 */
async function leaveAsKilled(runId: string, startedNode: string): Promise<void> {
  const at = new Date().toISOString();
  await store.commit(runId, {
    steps: [
      { nodeId: "first", status: "succeeded", output: { content: "counted first" }, attempt: 1, finishedAt: at },
      { nodeId: "second", status: "running", attempt: 1 },
    ],
    events: [
      { runId, seq: 1, type: "run-started", nodeId: null, payload: { inputs: {} }, createdAt: at },
      { runId, seq: 2, type: "node-started", nodeId: startedNode, payload: { kind: "tool", attempt: 1 }, createdAt: at },
    ],
  });
}

describe("RunEngine as a worker drives runs (drive, parkWhenWaiting)", () => {
  it("lets go of a run that only waits for a person, and a later drive continues the same attempt from the decision", async () => {
    const worker = new RunEngine({ store, bus, pool: () => new ToolPool(allTools()), secrets, workingDirectory: workRoot, parkWhenWaiting: true });
    const workflow = await createWorkflow(writeWorkflow("default", "parked.txt"), temp.database);
    const { runId } = await createRun(workflow.id, { name: "Grace" }, {}, temp.database);

    // The first drive starts the run and returns once the write waits for a person: the run holds no worker.
    expect(await worker.drive(runId)).toBe("parked");
    expect(worker.isActive(runId)).toBe(false);
    const waiting = await getRunDetail(runId, temp.database);
    expect(waiting.status).toBe("awaiting_input");
    expect(waiting.steps.find((step) => step.nodeId === "write")).toMatchObject({ status: "waiting", attempt: 1 });
    expect(existsSync(path.join(workRoot, "parked.txt"))).toBe(false);

    // Decided elsewhere (the inbox of another process), then the decision's job drives the run again.
    const [approval] = await temp.database.approval.findMany({ where: { runId } });
    expect((await store.decideApproval(approval!.id, { decision: "once", feedback: null, decidedBy: "someone" }))?.changed).toBe(true);
    expect(await worker.drive(runId)).toBe("finished");

    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status).toBe("succeeded");
    expect(detail.steps.find((step) => step.nodeId === "write")).toMatchObject({ status: "succeeded", attempt: 1 });
    expect(readFileSync(path.join(workRoot, "parked.txt"), "utf8")).toBe("hello Grace");
    const types = (await readEvents(runId, 0, 1000, temp.database)).map((event) => `${event.type}${event.nodeId ? `:${event.nodeId}` : ""}`);
    // Parked and continued, not restarted: one start of the write, no run-resumed, the decision right before its result.
    expect(types.filter((type) => type === "node-started:write")).toHaveLength(1);
    expect(types).not.toContain("run-resumed");
    const afterDecision = types.slice(types.indexOf("approval-decided:write")).filter((type) => !type.startsWith("node-progress"));
    expect(afterDecision).toEqual(["approval-decided:write", "node-succeeded:write", "node-started:out", "node-succeeded:out", "run-succeeded"]);

    // A finished run is left alone.
    expect(await worker.drive(runId)).toBe("finished");
    expect((await readEvents(runId, 0, 1000, temp.database)).length).toBe(types.length);
  });

  it("a step waiting for a person at shutdown stays waiting, its approval pending, instead of failing: the run is handed back as it was", async () => {
    const studio = newEngine();
    const workflow = await createWorkflow(writeWorkflow("default", "handed-back-waiting.txt"), temp.database);
    const { runId } = await createRun(workflow.id, { name: "Lin" }, {}, temp.database);
    const asked = nextEvent(runId, "run-awaiting-input");
    await studio.start(runId);
    await asked;
    await studio.handBackAll(30_000);
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status).toBe("awaiting_input");
    expect(detail.steps.find((step) => step.nodeId === "write")).toMatchObject({ status: "waiting", error: null });
    expect(detail.approvals.map((approval) => approval.status)).toEqual(["pending"]);
    expect(existsSync(path.join(workRoot, "handed-back-waiting.txt"))).toBe(false);
    const next = newEngine();
    expect(await next.resumeAll()).toContain(runId);
    await next.cancel(runId, null);
  });

  it("hands a run back at shutdown only once its step in flight is stored as finished, so the next drive does not find it cut off", async () => {
    // A step the test lets finish, and a store whose commit of that step's success the test holds.
    let releaseStep!: () => void;
    const stepReleased = new Promise<void>((resolve) => (releaseStep = resolve));
    let stepStarted!: () => void;
    const started = new Promise<void>((resolve) => (stepStarted = resolve));
    class HeldTool extends Tool<Record<string, never>> {
      name = "held";
      title = "Held step";
      description = "Finishes when the test says so.";
      inputModel = z.object({});
      override isReadOnly(): boolean {
        return true;
      }
      override async call(): Promise<ToolResult> {
        stepStarted();
        await stepReleased;
        return ToolResult.ok("done");
      }
    }
    let openCommit!: () => void;
    const commitOpened = new Promise<void>((resolve) => (openCommit = resolve));
    let commitReached!: () => void;
    const reached = new Promise<void>((resolve) => (commitReached = resolve));
    const slowStore = Object.create(store) as PrismaRunStore;
    slowStore.commit = async (runId, commit) => {
      if (commit.steps.some((step) => step.nodeId === "held" && step.status === "succeeded")) {
        commitReached();
        await commitOpened;
      }
      return store.commit(runId, commit);
    };
    const worker = new RunEngine({ store: slowStore, bus, pool: () => new ToolPool([new HeldTool()]), secrets, workingDirectory: workRoot, parkWhenWaiting: true });
    const workflow = await createWorkflow(
      {
        name: "handed back",
        mode: "bypass",
        nodes: [
          { id: "held", kind: "tool", tool: "held", arguments: {} },
          { id: "after", kind: "output", value: "after" },
        ],
        edges: [{ id: "a", source: "held", target: "after" }],
      },
      temp.database,
    );
    const { runId } = await createRun(workflow.id, {}, {}, temp.database);
    let outcome: string | undefined;
    const driving = worker.drive(runId).then((result) => (outcome = result));
    await started;

    const handingBack = worker.handBackAll(30_000);
    releaseStep();
    await reached;
    // The step's success is on its way to the database: the run has not left yet.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(outcome).toBeUndefined();
    openCommit();
    await handingBack;
    await driving;
    expect(outcome).toBe("handed-back");
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status).toBe("running");
    expect(detail.steps.find((step) => step.nodeId === "held")).toMatchObject({ status: "succeeded", attempt: 1 });
    expect(detail.steps.find((step) => step.nodeId === "after")?.status).toBe("pending");
  });

  it("cancels a run someone asked another process to cancel, without running anything of it", async () => {
    const worker = new RunEngine({ store, bus, pool: () => new ToolPool(allTools()), secrets, workingDirectory: workRoot, parkWhenWaiting: true });
    const workflow = await createWorkflow(writeWorkflow("default", "never.txt"), temp.database);
    const { runId } = await createRun(workflow.id, { name: "Nobody" }, {}, temp.database);
    expect(await worker.drive(runId)).toBe("parked");
    await temp.database.run.update({ where: { id: runId }, data: { cancelRequestedAt: new Date(), cancelRequestedBy: "the inbox" } });

    expect(await worker.drive(runId)).toBe("finished");
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status).toBe("cancelled");
    const events = await readEvents(runId, 0, 1000, temp.database);
    expect(events.at(-1)).toMatchObject({ type: "run-cancelled", payload: { cancelledBy: "the inbox" } });
    expect(events.at(-2)).toMatchObject({ type: "approval-decided", payload: { approval: { status: "cancelled" } } });
    expect(existsSync(path.join(workRoot, "never.txt"))).toBe(false);
  });
});
