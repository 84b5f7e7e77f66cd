import { existsSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { allTools, NO_SECRETS, Tool, ToolPool, ToolResult, type ToolErrorKind } from "@/lib/tools";
import { waitFor } from "@/lib/tools/testing/processes";
import { createWorkflow } from "@/lib/persistence";
import { publishVersion } from "@/lib/persistence/publishing";
import { createRun, getRunDetail, insertRun, listApprovals, readEvents } from "@/lib/persistence/run-queries";
import { PrismaRunStore } from "@/lib/persistence/run-store";
import { openTempDatabase, type TempDatabase } from "@/lib/persistence/temp-database";
import type { RunDetail } from "@/lib/contracts/run";
import type { WorkflowDefinitionInput } from "@/lib/workflow/definition";
import { RunEventBus } from "@/lib/workflow/event-bus";
import { RunEngine } from "@/lib/workflow/run-engine";
import { validateWorkflow } from "@/lib/workflow/validate";
import { workflowLookup } from "./error-workflows";
import type { RunDriver } from "./run-driver";
import { studioChildRuns } from "./sub-workflows";
import { childRunEngine, mortalStore, SendTool } from "./testing/child-run-engines";

/**
 * Sub-workflow steps on the real engine and a real SQLite file: the called
 * workflow's run is a real run, its inputs mapped from the caller's, its
 * output the step's; its failure fails the step with its kind (so the step's
 * retries apply, one child run per attempt); its approvals wait in the inbox
 * naming both workflows while the calling step waits; a restart mid-wait
 * picks the same child up again; loops of calls are refused at validation.
 */

/** Read-only: says its text loudly, with the result as data too. */
class ShoutTool extends Tool<{ text: string }> {
  name = "shout";
  title = "Shout";
  description = "Says the text loudly.";
  inputModel = z.object({ text: z.string() });
  override isReadOnly(): boolean {
    return true;
  }
  override async call(args: { text: string }): Promise<ToolResult> {
    const loud = `${args.text.toUpperCase()}!`;
    return ToolResult.ok(loud, { loud, length: args.text.length });
  }
}

/** Fails the way its `kind` argument says; counts its calls. */
class FailingTool extends Tool<{ kind: string }> {
  name = "failing";
  title = "Failing step";
  description = "Always fails, with the kind it is given.";
  inputModel = z.object({ kind: z.string() });
  calls = 0;
  override isReadOnly(): boolean {
    return true;
  }
  override async call(args: { kind: string }): Promise<ToolResult> {
    this.calls += 1;
    return ToolResult.error(`It failed as ${args.kind}.`, { kind: args.kind as ToolErrorKind });
  }
}

let temp: TempDatabase;
let bus: RunEventBus;
let engine: RunEngine;
let workRoot: string;
const failing = new FailingTool();
const send = new SendTool();
const pool = new ToolPool([...allTools(), new ShoutTool(), failing, send]);

/** An engine over the test database with the studio's child runs, as a (re)started studio makes it; `store` to make it mortal. */
function newEngine(store?: PrismaRunStore): RunEngine {
  return childRunEngine({ database: temp.database, bus, pool, workRoot, ...(store ? { store } : {}) });
}

beforeAll(async () => {
  temp = await openTempDatabase();
  bus = new RunEventBus();
  workRoot = realpathSync(mkdtempSync(path.join(os.tmpdir(), "engine-subworkflows-")));
  engine = newEngine();
});

afterAll(async () => {
  await engine.idle();
  await temp.close();
});

/** A workflow whose run inputs node feeds `middle` (in order), whose last node feeds an output of `value`. */
function chain(name: string, fields: { name: string; required?: boolean }[], middle: WorkflowDefinitionInput["nodes"], value: string): WorkflowDefinitionInput {
  const ids = ["in", ...middle.map((node) => node.id), "out"];
  return {
    name,
    nodes: [{ id: "in", kind: "input", fields }, ...middle, { id: "out", kind: "output", value }],
    edges: ids.slice(1).map((target, index) => ({ id: `${ids[index]}-${target}`, source: ids[index]!, target })),
  };
}

async function saved(definition: WorkflowDefinitionInput, options: { publish?: boolean } = {}): Promise<string> {
  const workflow = await createWorkflow(definition, temp.database);
  if (options.publish) await publishVersion(workflow.id, 1, temp.database);
  return workflow.id;
}

async function finishedRun(runId: string): Promise<RunDetail> {
  await waitFor(async () => !["running", "awaiting_input"].includes((await getRunDetail(runId, temp.database)).status), 20_000, `run ${runId} to finish`);
  return getRunDetail(runId, temp.database);
}

async function startParent(workflowId: string, inputs: Record<string, unknown>, on: RunEngine = engine): Promise<string> {
  const { runId } = await createRun(workflowId, inputs, {}, temp.database);
  await on.start(runId);
  return runId;
}

/** The pending approval of a run that `parentRunId`'s steps called, once there is one. */
async function calledApproval(parentRunId: string, what: string): Promise<Awaited<ReturnType<typeof listApprovals>>[number]> {
  let pending: Awaited<ReturnType<typeof listApprovals>>[number] | undefined;
  await waitFor(async () => {
    [pending] = (await listApprovals({ status: "pending" }, temp.database)).filter((approval) => approval.calledBy?.runId === parentRunId);
    return pending !== undefined;
  }, 20_000, what);
  return pending!;
}

async function childrenOf(runId: string): Promise<RunDetail["childRuns"]> {
  return (await getRunDetail(runId, temp.database)).childRuns;
}

describe("a Sub-workflow step", () => {
  it("maps the caller's data into the called workflow's run inputs and gives back its output, linked both ways", async () => {
    const child = await saved(chain("Shouter", [{ name: "who", required: true }], [{ id: "shout", kind: "tool", tool: "shout", arguments: { text: "hello {{ inputs.who }}" } }], "{{ nodes.shout.data }}"), { publish: true });
    const parent = await saved(
      chain("Greeter", [{ name: "name" }], [{ id: "call", kind: "subworkflow", label: "Shout it", workflowId: child, inputs: { who: "{{ inputs.name }}" } }], "{{ nodes.call.data.loud }} ({{ nodes.call.data.length }})"),
    );
    const runId = await startParent(parent, { name: "ada" });
    const detail = await finishedRun(runId);
    expect(detail.status, detail.error ?? "").toBe("succeeded");
    expect(detail.output).toBe("HELLO ADA! (9)");

    const [called] = detail.childRuns;
    expect(detail.childRuns).toHaveLength(1);
    expect(called).toMatchObject({ nodeId: "call", attempt: 1, version: 1, workflowId: child, workflowName: "Shouter", status: "succeeded" });
    const step = detail.steps.find((each) => each.nodeId === "call")!;
    expect(step.output?.data).toEqual({ loud: "HELLO ADA!", length: 9 });
    expect(step.input).toMatchObject({ workflowName: "Shouter", version: 1, runId: called!.id, inputs: { who: "ada" } });

    const childRun = await getRunDetail(called!.id, temp.database);
    expect(childRun.inputs).toEqual({ who: "ada" });
    expect(childRun.trigger.kind).toBe("sub-workflow");
    expect(childRun.sourceRun).toMatchObject({ id: runId, kind: "sub-workflow", workflowName: "Greeter", nodeId: "call", nodeLabel: "Shout it" });
    const events = await readEvents(runId, 0, 500, temp.database);
    expect(events.filter((event) => event.type === "child-run-started").map((event) => event.payload)).toEqual([
      { runId: called!.id, workflowId: child, workflowName: "Shouter", version: 1 },
    ]);
  });

  it("fails with the called run's error and its kind: a retryable kind is retried with a new child run per attempt, a denial-like one is not", async () => {
    const flaky = await saved(chain("Flaky", [{ name: "kind" }], [{ id: "fail", kind: "tool", tool: "failing", arguments: { kind: "{{ inputs.kind }}" } }], "never"), { publish: true });
    const parent = await saved(
      chain(
        "Calls flaky",
        [{ name: "kind" }],
        [{ id: "call", kind: "subworkflow", workflowId: flaky, inputs: { kind: "{{ inputs.kind }}" }, execution: { retry: { maxAttempts: 2, initialDelayMs: 10, factor: 1 } } }],
        "{{ nodes.call.output }}",
      ),
    );
    const network = await finishedRun(await startParent(parent, { kind: "network" }));
    expect(network.status).toBe("failed");
    expect(network.steps.find((step) => step.nodeId === "call")).toMatchObject({ status: "failed", errorKind: "network", attempt: 2 });
    expect(network.steps.find((step) => step.nodeId === "call")!.error).toContain("“Flaky” failed: Failing step failed: It failed as network.");
    expect(network.childRuns.map((run) => [run.attempt, run.status])).toEqual([
      [1, "failed"],
      [2, "failed"],
    ]);

    const notFound = await finishedRun(await startParent(parent, { kind: "not-found" }));
    expect(notFound.steps.find((step) => step.nodeId === "call")).toMatchObject({ status: "failed", errorKind: "not-found", attempt: 1 });
    expect(notFound.childRuns).toHaveLength(1);
  });

  it("waits while the called run waits for a person, whose inbox names both workflows; the decision finishes both", async () => {
    const child = await saved(chain("Sender", [{ name: "label", required: true }], [{ id: "send", kind: "tool", tool: "send", label: "Send it", arguments: { label: "{{ inputs.label }}" } }], "{{ nodes.send.output }}"), { publish: true });
    const parent = await saved(chain("Outer", [], [{ id: "call", kind: "subworkflow", label: "Send through Sender", workflowId: child, inputs: { label: "report" } }], "{{ nodes.call.output }}"));
    const runId = await startParent(parent, {});
    const pending = await calledApproval(runId, "the called run's approval");
    expect(pending).toMatchObject({ workflowName: "Sender", nodeLabel: "Send it", calledBy: { runId, workflowId: parent, workflowName: "Outer", nodeId: "call", nodeLabel: "Send through Sender" } });
    // The child's approval and the parent's "waiting" are stored by two runs independently: on a busy machine either comes first.
    await waitFor(async () => (await getRunDetail(runId, temp.database)).steps.find((step) => step.nodeId === "call")?.status === "waiting", 20_000, "the step to wait");
    expect((await getRunDetail(runId, temp.database)).status).toBe("running");
    expect(send.sent).not.toContain("report");

    await engine.decide(pending.id, { decision: "approve", feedback: null, decidedBy: "tester" });
    const detail = await finishedRun(runId);
    expect(detail.status, detail.error ?? "").toBe("succeeded");
    expect(detail.output).toBe("sent report");
    expect(send.sent.filter((label) => label === "report")).toHaveLength(1);
  });

  it("runs a called workflow under its caller's stricter mode: a child saved in bypass, called from a run in default mode, asks for its write in the inbox, naming both workflows", async () => {
    const child = await saved(
      {
        ...chain("Trusted writer", [], [{ id: "write", kind: "tool", tool: "write_file", label: "Write the note", settings: { root: workRoot }, arguments: { path: "stricter.txt", content: "from the child" } }], "{{ nodes.write.output }}"),
        mode: "bypass",
        guardrails: { localNetworkPolicy: "open", localNetworkAllow: ["127.0.0.1"] },
      },
      { publish: true },
    );
    const parent = await saved({
      ...chain("Careful caller", [], [{ id: "call", kind: "subworkflow", label: "Call the writer", workflowId: child }], "{{ nodes.call.output }}"),
      guardrails: { localNetworkPolicy: "denied" },
    });
    const runId = await startParent(parent, {});
    const pending = await calledApproval(runId, "the called run's write to wait for a person");
    // Saved in bypass, it would have written at once: under its caller's mode it asks.
    expect(pending).toMatchObject({ kind: "write", workflowName: "Trusted writer", nodeLabel: "Write the note", calledBy: { runId, workflowName: "Careful caller", nodeLabel: "Call the writer" } });
    expect(existsSync(path.join(workRoot, "stricter.txt"))).toBe(false);
    const [called] = await childrenOf(runId);
    const childDetail = await getRunDetail(called!.id, temp.database);
    // Recorded on the run, so its page says so, and every drive of it (a restart) runs it the same.
    expect(childDetail.permissions).toMatchObject({ mode: "default", guardrails: { localNetworkPolicy: "denied", localNetworkAllow: [] } });
    expect(childDetail.definition.mode).toBe("bypass");
    const reloaded = await new PrismaRunStore(temp.database).loadRun(called!.id);
    expect(reloaded?.definition).toMatchObject({ mode: "default", guardrails: { localNetworkPolicy: "denied" } });

    await engine.decide(pending.id, { decision: "approve", feedback: null, decidedBy: "tester" });
    const detail = await finishedRun(runId);
    expect(detail.status, detail.error ?? "").toBe("succeeded");
    expect(readFileSync(path.join(workRoot, "stricter.txt"), "utf8")).toBe("from the child");
  });

  it("runs a called workflow under its own mode when that is the stricter one, and records nothing", async () => {
    const child = await saved(chain("Own rules", [], [{ id: "shout", kind: "tool", tool: "shout", arguments: { text: "hi" } }], "{{ nodes.shout.output }}"), { publish: true });
    const parent = await saved({ ...chain("Free caller", [], [{ id: "call", kind: "subworkflow", workflowId: child }], "{{ nodes.call.output }}"), mode: "bypass" });
    const runId = await startParent(parent, {});
    expect((await finishedRun(runId)).status).toBe("succeeded");
    const [called] = await childrenOf(runId);
    expect((await getRunDetail(called!.id, temp.database)).permissions).toBeNull();
  });

  // Four waits of up to 20 s each: the ceiling is theirs, not the default 30 s a loaded machine can pass.
  it("after a restart mid-wait, picks up the same called run (no second one) and finishes when it does", { timeout: 90_000 }, async () => {
    const child = await saved(chain("Sender again", [], [{ id: "send", kind: "tool", tool: "send", arguments: { label: "after-restart" } }], "{{ nodes.send.output }}"), { publish: true });
    const parent = await saved(chain("Outer again", [], [{ id: "call", kind: "subworkflow", workflowId: child, inputs: {} }], "{{ nodes.call.output }}"));
    // The first process dies mid-wait (SIGKILL): from then on it writes nothing, and what it held in memory is gone.
    const mortal = mortalStore(temp.database);
    const first = newEngine(mortal.store);
    const runId = await startParent(parent, {}, first);
    await waitFor(async () => (await childrenOf(runId)).some((run) => run.status === "awaiting_input"), 20_000, "the called run to wait for a person");
    await waitFor(async () => (await getRunDetail(runId, temp.database)).steps.find((step) => step.nodeId === "call")?.status === "waiting", 20_000, "the step to wait");
    await mortal.kill();

    const restarted = newEngine();
    const resumed = await restarted.resumeAll();
    expect(resumed).toEqual(expect.arrayContaining([runId, (await childrenOf(runId))[0]!.id]));
    const [approval] = (await listApprovals({ status: "pending" }, temp.database)).filter((each) => each.calledBy?.runId === runId);
    expect(approval).toBeDefined();
    await restarted.decide(approval!.id, { decision: "approve", feedback: null, decidedBy: "tester" });
    const detail = await finishedRun(runId);
    expect(detail.status, detail.error ?? "").toBe("succeeded");
    expect(detail.output).toBe("sent after-restart");
    expect(detail.childRuns).toHaveLength(1);
    const events = await readEvents(runId, 0, 500, temp.database);
    // The same attempt went on: one start of the step, one child started.
    expect(events.filter((event) => event.type === "node-started" && event.nodeId === "call")).toHaveLength(1);
    expect(events.filter((event) => event.type === "child-run-started")).toHaveLength(1);
    await restarted.idle();
  });

  it("a time limit that passes while the called run waits cancels it, and the step fails as a time-out", async () => {
    const child = await saved(chain("Slow sender", [], [{ id: "send", kind: "tool", tool: "send", arguments: { label: "too-late" } }], "{{ nodes.send.output }}"), { publish: true });
    const parent = await saved(chain("Impatient", [], [{ id: "call", kind: "subworkflow", workflowId: child, inputs: {}, execution: { timeoutMs: 300 } }], "{{ nodes.call.output }}"));
    const detail = await finishedRun(await startParent(parent, {}));
    expect(detail.status).toBe("failed");
    expect(detail.steps.find((step) => step.nodeId === "call")).toMatchObject({ status: "failed", errorKind: "timeout" });
    await waitFor(async () => (await childrenOf(detail.id)).every((run) => run.status === "cancelled"), 20_000, "the called run to be cancelled");
    expect(send.sent).not.toContain("too-late");
  });

  it("in plan mode, the plan a person approves says which workflow the step calls and with what, before anything is called; the called run presents its own plan", async () => {
    const child = await saved(chain("Planned shouter", [{ name: "who", required: true }], [{ id: "shout", kind: "tool", tool: "shout", arguments: { text: "{{ inputs.who }}" } }], "{{ nodes.shout.output }}"), { publish: true });
    const parent = await saved({
      ...chain("Planned caller", [], [{ id: "call", kind: "subworkflow", label: "Shout it", workflowId: child, inputs: { who: "planned" } }], "{{ nodes.call.output }}"),
      mode: "plan",
    });
    const runId = await startParent(parent, {});
    let plan: Awaited<ReturnType<typeof listApprovals>>[number] | undefined;
    await waitFor(async () => ([plan] = await listApprovals({ runId, status: "pending" }, temp.database)).length > 0, 20_000, "the plan to approve");
    expect(plan!.kind).toBe("plan");
    expect(plan!.preview).toContain(`2. Shout it: calls the workflow ${child} (its published version) with {"who":"planned"}`);
    expect(await childrenOf(runId)).toEqual([]);
    await engine.decide(plan!.id, { decision: "approve", feedback: null, decidedBy: "tester" });
    // The called run runs under the caller's stricter mode, plan: its own steps wait for its own plan, named by both workflows.
    const childPlan = await calledApproval(runId, "the called run's plan");
    expect(childPlan).toMatchObject({ kind: "plan", workflowName: "Planned shouter", calledBy: { workflowName: "Planned caller" } });
    expect(childPlan.preview).toContain('Plan for "Planned shouter"');
    await engine.decide(childPlan.id, { decision: "approve", feedback: null, decidedBy: "tester" });
    const detail = await finishedRun(runId);
    expect(detail.status, detail.error ?? "").toBe("succeeded");
    expect(detail.output).toBe("PLANNED!");
  });

  it("cancelling the calling run cancels the called run", async () => {
    const child = await saved(chain("Sender to cancel", [], [{ id: "send", kind: "tool", tool: "send", arguments: { label: "never" } }], "{{ nodes.send.output }}"), { publish: true });
    const parent = await saved(chain("Outer to cancel", [], [{ id: "call", kind: "subworkflow", workflowId: child, inputs: {} }], "{{ nodes.call.output }}"));
    const runId = await startParent(parent, {});
    await waitFor(async () => (await childrenOf(runId)).some((run) => run.status === "awaiting_input"), 20_000, "the called run to wait for a person");
    expect(await engine.cancel(runId, "tester")).toBe(true);
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status).toBe("cancelled");
    expect((await childrenOf(runId)).map((run) => run.status)).toEqual(["cancelled"]);
    expect(send.sent).not.toContain("never");
  });
});

describe("a Sub-workflow step driven by workers (each drive is what a worker does for a run's job)", () => {
  it("lets its run go while the child runs; the child's end asks for the parent's drive, again on any later drive of it, and the parent goes on where it was", async () => {
    const child = await saved(chain("Worker sender", [], [{ id: "send", kind: "tool", tool: "send", arguments: { label: "by-workers" } }], "{{ nodes.send.output }}"), { publish: true });
    const parent = await saved(chain("Worker outer", [], [{ id: "call", kind: "subworkflow", workflowId: child, inputs: {} }], "{{ nodes.call.output }}"));
    // Runs are created with their job and driven by whichever worker takes it: here, by the test's drive calls.
    const store = new PrismaRunStore(temp.database);
    const queued: RunDriver = { start: (version, inputs, start) => insertRun(version, inputs, temp.database, start), cancel: async () => false, approvalChanged: async () => undefined };
    const jobs: string[] = [];
    const childRuns = studioChildRuns({ database: temp.database, runs: () => queued, pool: () => pool, secrets: NO_SECRETS, driveRun: async (runId) => void jobs.push(runId) });
    const worker = new RunEngine({ store, bus, pool: () => pool, secrets: NO_SECRETS, workingDirectory: workRoot, childRuns, parkWhenWaiting: true });

    const { runId } = await createRun(parent, {}, {}, temp.database);
    expect(await worker.drive(runId)).toBe("parked");
    const [called] = await childrenOf(runId);
    expect((await getRunDetail(runId, temp.database)).steps.find((step) => step.nodeId === "call")?.status).toBe("waiting");
    expect(await worker.drive(called!.id)).toBe("parked");
    const [approval] = await listApprovals({ runId: called!.id, status: "pending" }, temp.database);
    await store.decideApproval(approval!.id, { decision: "approve", feedback: null, decidedBy: "tester" });
    expect(jobs).toEqual([]);

    expect(await worker.drive(called!.id)).toBe("finished");
    expect(jobs).toEqual([runId]);
    // A second job of the finished child (its worker died before the first job was done) says it again.
    expect(await worker.drive(called!.id)).toBe("finished");
    expect(jobs).toEqual([runId, runId]);

    expect(await worker.drive(runId)).toBe("finished");
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status, detail.error ?? "").toBe("succeeded");
    expect(detail.output).toBe("sent by-workers");
    const events = await readEvents(runId, 0, 500, temp.database);
    // Let go and driven on, never restarted: one start of the step, nothing announced as resumed.
    expect(events.filter((event) => event.type === "node-started" && event.nodeId === "call")).toHaveLength(1);
    expect(events.some((event) => event.type === "run-resumed")).toBe(false);
    // The parent's later drives wake nobody: no Sub-workflow step called it.
    expect(await worker.drive(runId)).toBe("finished");
    expect(jobs).toEqual([runId, runId]);
  });
});

describe("validation of a Sub-workflow step", () => {
  const problemsOf = async (definition: WorkflowDefinitionInput, selfId: string | null) =>
    (await validateWorkflow(definition, { pool, secrets: NO_SECRETS, workflows: workflowLookup(temp.database, selfId) })).problems.filter((problem) => problem.nodeId === "call");

  it("refuses a loop of calls on the step's workflow field: itself, and through saved versions at any depth", async () => {
    // A calls B, B calls C, C calls A: each saved; A's own step is the one checked.
    const a = await saved(chain("Loop A", [], [], "a"));
    const c = await saved(chain("Loop C", [], [{ id: "call", kind: "subworkflow", workflowId: a, version: 1 }], "c"));
    const b = await saved(chain("Loop B", [], [{ id: "call", kind: "subworkflow", workflowId: c, version: 1 }], "b"));
    const aCallsB = chain("Loop A", [], [{ id: "call", kind: "subworkflow", workflowId: b, version: 1 }], "a");
    const loop = await problemsOf(aCallsB, a);
    expect(loop).toEqual([
      expect.objectContaining({
        field: "workflowId",
        severity: "error",
        message: expect.stringContaining("“Loop A” calls “Loop B”, which calls “Loop C”, which calls “Loop A”"),
      }),
    ]);
    const itself = await problemsOf(chain("Loop A", [], [{ id: "call", kind: "subworkflow", workflowId: a }], "a"), a);
    expect(itself).toEqual([expect.objectContaining({ field: "workflowId", message: expect.stringContaining("cannot call itself") })]);
    // Without the loop back, the same chain is fine (C calls nothing here).
    const d = await saved(chain("Chain D", [], [], "d"));
    expect(await problemsOf(chain("Loop A", [], [{ id: "call", kind: "subworkflow", workflowId: d, version: 1 }], "a"), a)).toEqual([]);
  });

  it("names on its fields a missing workflow or version, an unknown input, a required input left out, and an unpublished callee", async () => {
    const callee = await saved(chain("Needs two", [{ name: "first", required: true }, { name: "second", required: false }], [], "{{ inputs.first }}"));
    const problems = await problemsOf(chain("Caller", [], [{ id: "call", kind: "subworkflow", workflowId: callee, inputs: { second: "x", third: "y" } }], "c"), null);
    expect(problems.map((problem) => [problem.field, problem.severity])).toEqual([
      ["version", "warning"],
      ["inputs.third", "error"],
      ["inputs.first", "error"],
    ]);
    expect(problems[0]!.message).toContain("“Needs two” is not published, so runs call its newest saved version (version 1)");
    expect(problems[1]!.message).toContain("has no run input “third”");
    expect(problems[2]!.message).toContain("needs its run input “first”");
    expect((await problemsOf(chain("Caller", [], [{ id: "call", kind: "subworkflow", workflowId: callee, version: 7, inputs: { first: "x" } }], "c"), null)).map((problem) => problem.field)).toEqual(["version"]);
    expect((await problemsOf(chain("Caller", [], [{ id: "call", kind: "subworkflow", workflowId: "no-such-workflow" }], "c"), null)).map((problem) => problem.field)).toEqual(["workflowId"]);
    expect((await problemsOf(chain("Caller", [], [{ id: "call", kind: "subworkflow", inputs: { first: "{{ nodes.nowhere.output }}" } }], "c"), null)).map((problem) => problem.field)).toEqual([
      "inputs.first",
      "workflowId",
    ]);
  });
});
