import { mkdtempSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { allTools, NO_SECRETS, Tool, ToolPool, ToolResult, type PermissionRequest, type ToolContext, type ToolErrorKind } from "@/lib/tools";
import { waitFor } from "@/lib/tools/testing/processes";
import { createWorkflow } from "@/lib/persistence";
import { createRun, getRunDetail, readEvents } from "@/lib/persistence/run-queries";
import { PrismaRunStore } from "@/lib/persistence/run-store";
import { openTempDatabase, type TempDatabase } from "@/lib/persistence/temp-database";
import type { WorkflowDefinitionInput } from "@/lib/workflow/definition";
import { RunEventBus } from "@/lib/workflow/event-bus";
import { INTERRUPTED, RunEngine, type RunFailureReport } from "@/lib/workflow/run-engine";
import type { RunEvent } from "@/lib/workflow/run-types";
import { FakeClock } from "@/lib/workflow/testing/fake-clock";

/**
 * How a run handles failing steps: retries with backoff on a fake clock,
 * errors that are not worth trying again, denials, time limits, continue,
 * error edges, error workflows, and a retry's wait across a restart. Real
 * SQLite file, real engine; only time is faked.
 */

type Outcome = "ok" | "hang" | { fail: ToolErrorKind };

/** What the scripted tool does on each call, in order, per label; and when each call came (by the fake clock). */
const scripts = new Map<string, Outcome[]>();
const calls = new Map<string, number[]>();
let clock: FakeClock;

/**
 * A tool that follows a script: succeed, fail with a kind, or hang until its
 * signal aborts (recording why). Destructive when `destructive` is set, asking
 * a network approval whose preview names `change` (so a test can make a retry
 * ask for something else).
 */
class ScriptedTool extends Tool<{ label: string; destructive?: boolean; change?: string }> {
  name = "scripted";
  title = "Scripted step";
  description = "Does what the test scripted.";
  capabilities = ["web.request"] as const;
  inputModel = z.object({ label: z.string(), destructive: z.boolean().optional(), change: z.string().optional() });
  readonly aborts: unknown[] = [];
  override isReadOnly(args?: { destructive?: boolean }): boolean {
    return !args?.destructive;
  }
  override async describeAction(args: { label: string; change?: string }): Promise<PermissionRequest[]> {
    const url = `https://example.com/${args.label}`;
    const change = changes.get(args.label) ?? args.change ?? "the same thing";
    return [{ kind: "network", method: "POST", url, reason: `Send ${change}.`, preview: { kind: "request", method: "POST", url, headers: [], body: change } }];
  }
  override async call(args: { label: string }, ctx: ToolContext): Promise<ToolResult> {
    calls.set(args.label, [...(calls.get(args.label) ?? []), clock.now()]);
    const outcome = scripts.get(args.label)?.shift() ?? "ok";
    if (outcome === "ok") return ToolResult.ok(`did ${args.label}`, { label: args.label });
    if (outcome === "hang") {
      return new Promise((resolve) => {
        ctx.signal.addEventListener("abort", () => {
          this.aborts.push(ctx.signal.reason);
          resolve(ToolResult.error("stopped", { kind: "cancelled" }));
        });
      });
    }
    return ToolResult.error(`${args.label} failed (${outcome.fail})`, { kind: outcome.fail });
  }
}

/** What a destructive scripted step's approval shows, when a test changes it between attempts. */
const changes = new Map<string, string>();

let temp: TempDatabase;
let store: PrismaRunStore;
let bus: RunEventBus;
let scripted: ScriptedTool;
let workRoot: string;
const errorWorkflowCalls: RunFailureReport[] = [];

function newEngine(engineClock: FakeClock): RunEngine {
  return new RunEngine({
    store,
    bus,
    pool: () => new ToolPool([...allTools(), scripted]),
    secrets: NO_SECRETS,
    workingDirectory: workRoot,
    clock: engineClock,
    startErrorWorkflow: async (report) => {
      errorWorkflowCalls.push(report);
      return `error-run-of-${report.runId}`;
    },
  });
}

let engine: RunEngine;

beforeAll(async () => {
  temp = await openTempDatabase();
  store = new PrismaRunStore(temp.database);
  bus = new RunEventBus();
  scripted = new ScriptedTool();
  workRoot = realpathSync(mkdtempSync(path.join(os.tmpdir(), "engine-failures-")));
  clock = new FakeClock();
  engine = newEngine(clock);
});

afterAll(async () => {
  await temp.close();
});

async function startRun(definition: WorkflowDefinitionInput, runEngine = engine, trigger?: { kind: "error-workflow"; nodeId: null }) {
  const workflow = await createWorkflow(definition, temp.database);
  const { runId } = await createRun(workflow.id, {}, trigger ? { trigger } : {}, temp.database);
  await runEngine.start(runId);
  return { runId, workflowId: workflow.id };
}

async function events(runId: string): Promise<RunEvent[]> {
  return readEvents(runId, 0, 1000, temp.database);
}

function ofType<Type extends RunEvent["type"]>(all: RunEvent[], type: Type, nodeId?: string): Extract<RunEvent, { type: Type }>[] {
  return all.filter((event): event is Extract<RunEvent, { type: Type }> => event.type === type && (nodeId === undefined || event.nodeId === nodeId));
}

const step = (id: string, label: string, extra: Record<string, unknown> = {}) => ({ id, kind: "tool" as const, tool: "scripted", arguments: { label }, ...extra });
const chain = (...ids: string[]) => ids.slice(1).map((id, index) => ({ id: `${ids[index]}->${id}`, source: ids[index]!, target: id }));

/** Waits until the engine sleeps `count` times at once (a retry's wait, a time limit), then returns how far off each wakes. */
async function asleep(count = 1): Promise<number[]> {
  await waitFor(() => clock.sleepers() === count, 20_000, `${count} sleeper(s) on the fake clock`);
  return clock.wakesIn();
}

describe("retries", () => {
  it("tries again after 1 s, 2 s and 3 s (4 s capped), counting each attempt, until one succeeds", async () => {
    scripts.set("backoff", [{ fail: "network" }, { fail: "unavailable" }, { fail: "busy" }, "ok"]);
    const { runId } = await startRun({
      name: "backoff",
      nodes: [step("fetch", "backoff", { execution: { retry: { maxAttempts: 4, initialDelayMs: 1000, factor: 2, maxDelayMs: 3000 } } })],
    });
    const started = clock.now();
    expect(await asleep()).toEqual([1000]);
    await clock.advance(999);
    expect(calls.get("backoff")).toHaveLength(1);
    await clock.advance(1);
    expect(await asleep()).toEqual([2000]);
    expect(calls.get("backoff")).toHaveLength(2);
    await clock.advance(2000);
    expect(await asleep()).toEqual([3000]);
    await clock.advance(3000);
    await engine.settled(runId);

    expect(calls.get("backoff")!.map((at) => at - started)).toEqual([0, 1000, 3000, 6000]);
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status).toBe("succeeded");
    expect(detail.steps[0]).toMatchObject({ status: "succeeded", attempt: 4, error: null, errorKind: null, retryAt: null });
    const all = await events(runId);
    expect(ofType(all, "node-started").map((event) => [event.payload.attempt, event.payload.maxAttempts])).toEqual([
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
    expect(ofType(all, "node-retry-scheduled").map((event) => [event.payload.attempt, event.payload.errorKind, event.payload.delayMs])).toEqual([
      [1, "network", 1000],
      [2, "unavailable", 2000],
      [3, "busy", 3000],
    ]);
    expect(ofType(all, "node-retry-scheduled")[0]!.payload.retryAt).toBe(new Date(started + 1000).toISOString());
  });

  it("fails for good once the attempts are used up, with the last error and its kind", async () => {
    scripts.set("gives-up", [{ fail: "timeout" }, { fail: "timeout" }]);
    const { runId } = await startRun({ name: "gives up", nodes: [step("fetch", "gives-up", { execution: { retry: { maxAttempts: 2, initialDelayMs: 500 } } })] });
    await asleep();
    await clock.advance(500);
    await engine.settled(runId);
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status).toBe("failed");
    expect(detail.steps[0]).toMatchObject({ status: "failed", attempt: 2, errorKind: "timeout", error: "gives-up failed (timeout)" });
    expect(calls.get("gives-up")).toHaveLength(2);
  });

  it("never retries an error that says trying again will not help", async () => {
    scripts.set("bad-input", [{ fail: "invalid-input" }, "ok"]);
    scripts.set("plain", [{ fail: "failed" }, "ok"]);
    for (const label of ["bad-input", "plain"]) {
      const { runId } = await startRun({ name: label, nodes: [step("fetch", label, { execution: { retry: { maxAttempts: 5 } } })] });
      await engine.settled(runId);
      const all = await events(runId);
      expect(ofType(all, "node-retry-scheduled")).toEqual([]);
      expect(ofType(all, "node-started")).toHaveLength(1);
      expect((await getRunDetail(runId, temp.database)).steps[0]).toMatchObject({ status: "failed", attempt: 1 });
      expect(calls.get(label)).toHaveLength(1);
    }
  });

  it("never retries a denial", async () => {
    const denied = new Promise<void>((resolve) => {
      const unsubscribe = bus.subscribeAll((event) => {
        if (event.type === "approval-requested" && event.payload.approval.tool === "scripted") {
          unsubscribe();
          void engine.decide(event.payload.approval.id, { decision: "deny", feedback: "not this one", decidedBy: "Ada" }).then(() => resolve());
        }
      });
    });
    const { runId } = await startRun({
      name: "denied",
      nodes: [step("send", "denied", { arguments: { label: "denied", destructive: true }, execution: { retry: { maxAttempts: 3, initialDelayMs: 10 } } })],
    });
    await denied;
    await engine.settled(runId);
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.steps[0]).toMatchObject({ status: "failed", attempt: 1, errorKind: "denied" });
    expect(detail.steps[0]!.error).toContain("not this one");
    expect(ofType(await events(runId), "node-retry-scheduled")).toEqual([]);
    expect(calls.get("denied")).toBeUndefined();
  });

  it("asks again on a retry only when what the step would do changed", async () => {
    // The same request twice: the person's "once" stands for the retry of that very call.
    const approvals: string[] = [];
    const unsubscribe = bus.subscribeAll((event) => {
      if (event.type === "approval-requested" && event.payload.approval.tool === "scripted") {
        approvals.push(event.payload.approval.preview);
        void engine.decide(event.payload.approval.id, { decision: "once", feedback: null, decidedBy: "Ada" });
      }
    });
    try {
      scripts.set("same", [{ fail: "network" }, "ok"]);
      const same = await startRun({
        name: "same",
        nodes: [step("send", "same", { arguments: { label: "same", destructive: true }, execution: { retry: { maxAttempts: 2, initialDelayMs: 100 } } })],
      });
      await asleep();
      await clock.advance(100);
      await engine.settled(same.runId);
      expect((await getRunDetail(same.runId, temp.database)).status).toBe("succeeded");
      expect(approvals).toHaveLength(1);
      expect(ofType(await events(same.runId), "approval-requested")).toHaveLength(1);
      expect(ofType(await events(same.runId), "approval-decided")).toHaveLength(1);

      // What it would send changed before the retry: a new approval, for the new request.
      approvals.length = 0;
      scripts.set("changed", [{ fail: "network" }, "ok"]);
      changes.set("changed", "the first version");
      const changed = await startRun({
        name: "changed",
        nodes: [step("send", "changed", { arguments: { label: "changed", destructive: true }, execution: { retry: { maxAttempts: 2, initialDelayMs: 100 } } })],
      });
      await asleep();
      changes.set("changed", "the second version");
      await clock.advance(100);
      await engine.settled(changed.runId);
      expect((await getRunDetail(changed.runId, temp.database)).status).toBe("succeeded");
      expect(approvals).toEqual([expect.stringContaining("the first version"), expect.stringContaining("the second version")]);
      expect((await getRunDetail(changed.runId, temp.database)).approvals.map((approval) => approval.status)).toEqual(["approved", "approved"]);
    } finally {
      unsubscribe();
    }
  });
});

describe("time limits", () => {
  it("stops an attempt that runs past the limit (its tool sees the abort) and fails it as a time-out, which is retried", async () => {
    scripts.set("slow", ["hang", "ok"]);
    const aborted = scripted.aborts.length;
    const { runId } = await startRun({
      name: "slow",
      nodes: [step("fetch", "slow", { execution: { timeoutMs: 5000, retry: { maxAttempts: 2, initialDelayMs: 1000 } } })],
    });
    expect(await asleep()).toEqual([5000]);
    await clock.advance(5000);
    // The retry's wait; the first attempt's tool was told to stop.
    expect(await asleep()).toEqual([1000]);
    expect(scripted.aborts.length).toBe(aborted + 1);
    expect(String(scripted.aborts.at(-1))).toMatch(/time limit of 5\.0 s/);
    const retry = ofType(await events(runId), "node-retry-scheduled")[0]!;
    expect(retry.payload).toMatchObject({ errorKind: "timeout", error: "The step ran longer than its time limit of 5.0 s and was stopped." });
    await clock.advance(1000);
    await engine.settled(runId);
    expect((await getRunDetail(runId, temp.database)).steps[0]).toMatchObject({ status: "succeeded", attempt: 2 });
  });

  it("does not count the time a person takes to decide", async () => {
    const requested = new Promise<string>((resolve) => {
      const unsubscribe = bus.subscribeAll((event) => {
        if (event.type === "approval-requested" && event.payload.approval.tool === "scripted") {
          unsubscribe();
          resolve(event.payload.approval.id);
        }
      });
    });
    const { runId } = await startRun({
      name: "patient",
      nodes: [step("send", "patient", { arguments: { label: "patient", destructive: true }, execution: { timeoutMs: 1000 } })],
    });
    const approvalId = await requested;
    await waitFor(async () => (await getRunDetail(runId, temp.database)).status === "awaiting_input");
    // The limit stands still while the step waits: an hour passes and nothing times out.
    expect(clock.sleepers()).toBe(0);
    await clock.advance(3_600_000);
    await engine.decide(approvalId, { decision: "once", feedback: null, decidedBy: "Ada" });
    await engine.settled(runId);
    expect((await getRunDetail(runId, temp.database)).status).toBe("succeeded");
  });
});

describe("on error", () => {
  it("continue: the steps after it run and read the error as its output; the run succeeds", async () => {
    scripts.set("continues", [{ fail: "not-found" }]);
    const { runId } = await startRun({
      name: "continues",
      nodes: [
        step("fetch", "continues", { execution: { onError: "continue" } }),
        { id: "out", kind: "output", value: "{{ nodes.fetch.output.error.kind }}: {{ nodes.fetch.output.error.message }}" },
      ],
      edges: chain("fetch", "out"),
    });
    await engine.settled(runId);
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status, detail.error ?? "").toBe("succeeded");
    expect(detail.output).toBe("not-found: continues failed (not-found)");
    expect(detail.steps.map((each) => [each.nodeId, each.status])).toEqual([
      ["fetch", "failed"],
      ["out", "succeeded"],
    ]);
    expect(ofType(await events(runId), "node-failed", "fetch")[0]!.payload).toMatchObject({ errorKind: "not-found", handledBy: "continue" });
  });

  it("follows the error edge: only the error branch runs, given the error's message, kind and node; the normal branch is skipped", async () => {
    scripts.set("edge", [{ fail: "failed" }]);
    const definition: WorkflowDefinitionInput = {
      name: "error edge",
      nodes: [
        { id: "in", kind: "input", fields: [] },
        step("fetch", "edge", { execution: { onError: "error-edge", retry: { maxAttempts: 3 } } }),
        step("use", "use-result"),
        { id: "handled", kind: "output", label: "Handled", value: "{{ nodes.fetch.data.error.nodeId }} / {{ nodes.fetch.data.error.kind }} / {{ nodes.fetch.output.error.message }}" },
      ],
      edges: [...chain("in", "fetch", "use"), { id: "fetch-error", source: "fetch", target: "handled", sourceHandle: "error" }],
    };
    const { runId } = await startRun(definition);
    await engine.settled(runId);
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status, detail.error ?? "").toBe("succeeded");
    expect(detail.output).toBe("fetch / failed / edge failed (failed)");
    expect(Object.fromEntries(detail.steps.map((each) => [each.nodeId, each.status]))).toEqual({ in: "succeeded", fetch: "failed", use: "skipped", handled: "succeeded" });
    expect(calls.get("use-result")).toBeUndefined();
    expect(ofType(await events(runId), "node-failed", "fetch")[0]!.payload.handledBy).toBe("error-edge");

    // When the step succeeds, the error branch is what is skipped.
    const fine = await startRun({ ...definition, name: "error edge, no error" });
    await engine.settled(fine.runId);
    const steps = Object.fromEntries((await getRunDetail(fine.runId, temp.database)).steps.map((each) => [each.nodeId, each.status]));
    expect(steps).toEqual({ in: "succeeded", fetch: "succeeded", use: "succeeded", handled: "skipped" });
  });

  it("stop, the default, fails the run at the step and starts nothing after it", async () => {
    scripts.set("stops", [{ fail: "failed" }]);
    const { runId } = await startRun({ name: "stops", nodes: [step("fetch", "stops"), step("after", "never")], edges: chain("fetch", "after") });
    await engine.settled(runId);
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status).toBe("failed");
    expect(detail.error).toBe("Scripted step failed: stops failed (failed)");
    expect(detail.steps.map((each) => each.status)).toEqual(["failed", "skipped"]);
  });

  it("takes the workflow's defaults where a node says nothing", async () => {
    scripts.set("defaults", [{ fail: "network" }, { fail: "network" }]);
    const { runId } = await startRun({
      name: "defaults",
      onError: "continue",
      execution: { retry: { maxAttempts: 2, initialDelayMs: 250, factor: 1 } },
      nodes: [step("fetch", "defaults"), { id: "out", kind: "output", value: "{{ nodes.fetch.output.error.kind }}" }],
      edges: chain("fetch", "out"),
    });
    expect(await asleep()).toEqual([250]);
    await clock.advance(250);
    await engine.settled(runId);
    const detail = await getRunDetail(runId, temp.database);
    expect(detail).toMatchObject({ status: "succeeded", output: "network" });
    expect(detail.steps[0]).toMatchObject({ status: "failed", attempt: 2 });
  });
});

describe("the error workflow", () => {
  it("is started when a run fails, with the failed run's id, workflow, node and error, and linked from its failure", async () => {
    scripts.set("reported", [{ fail: "unavailable" }]);
    errorWorkflowCalls.length = 0;
    const { runId, workflowId } = await startRun({
      name: "reports its failures",
      errorWorkflowId: "the-error-workflow",
      nodes: [{ id: "in", kind: "input", fields: [] }, step("fetch", "reported", { label: "Fetch the report" })],
      edges: chain("in", "fetch"),
    });
    await engine.settled(runId);
    expect(errorWorkflowCalls).toEqual([
      {
        runId,
        workflowId,
        workflowName: "reports its failures",
        errorWorkflowId: "the-error-workflow",
        nodeId: "fetch",
        error: "reported failed (unavailable)",
        errorKind: "unavailable",
      },
    ]);
    const failed = ofType(await events(runId), "run-failed")[0]!;
    expect(failed.payload).toEqual({ error: "Fetch the report failed: reported failed (unavailable)", errorWorkflowRunId: `error-run-of-${runId}` });
  });

  it("is not started for a failure the run went on from, nor for a cancelled run", async () => {
    scripts.set("handled", [{ fail: "failed" }]);
    errorWorkflowCalls.length = 0;
    const handled = await startRun({
      name: "handles its failure",
      errorWorkflowId: "the-error-workflow",
      nodes: [step("fetch", "handled", { execution: { onError: "continue" } })],
    });
    await engine.settled(handled.runId);
    scripts.set("cancelled", ["hang"]);
    const cancelled = await startRun({ name: "cancelled", errorWorkflowId: "the-error-workflow", nodes: [step("fetch", "cancelled")] });
    await waitFor(() => (calls.get("cancelled") ?? []).length === 1);
    await engine.cancel(cancelled.runId, "Ada");
    expect((await getRunDetail(cancelled.runId, temp.database)).status).toBe("cancelled");
    expect(errorWorkflowCalls).toEqual([]);
  });

  it("does not loop: a run an error workflow started starts no error workflow when it fails", async () => {
    scripts.set("error-workflow-fails", [{ fail: "failed" }]);
    errorWorkflowCalls.length = 0;
    const { runId } = await startRun(
      { name: "its own error workflow", errorWorkflowId: "itself", nodes: [step("fetch", "error-workflow-fails")] },
      engine,
      { kind: "error-workflow", nodeId: null },
    );
    await engine.settled(runId);
    expect((await getRunDetail(runId, temp.database)).status).toBe("failed");
    expect(errorWorkflowCalls).toEqual([]);
    expect(ofType(await events(runId), "run-failed")[0]!.payload).not.toHaveProperty("errorWorkflowRunId");
  });
});

describe("across a restart", () => {
  it("goes on waiting out what was left of a retry's delay, and counts the attempts on", async () => {
    scripts.set("restarted", [{ fail: "network" }, "ok"]);
    const firstClock = new FakeClock(clock.now());
    const first = newEngine(firstClock);
    const { runId } = await startRun({ name: "restarted", nodes: [step("fetch", "restarted", { execution: { retry: { maxAttempts: 3, initialDelayMs: 10_000 } } })] }, first);
    await waitFor(() => firstClock.sleepers() === 1);
    await firstClock.advance(4000);
    const stored = await getRunDetail(runId, temp.database);
    expect(stored.steps[0]).toMatchObject({ status: "retrying", attempt: 1, errorKind: "network", retryAt: new Date(firstClock.now() + 6000).toISOString() });

    // The process stops here (the first engine is left as it is, asleep); a new one starts on the same database.
    const secondClock = new FakeClock(firstClock.now());
    const second = newEngine(secondClock);
    expect(await second.resumeAll()).toContain(runId);
    await waitFor(() => secondClock.sleepers() === 1);
    expect(secondClock.wakesIn()).toEqual([6000]);
    await secondClock.advance(5999);
    expect(calls.get("restarted")).toHaveLength(1);
    await secondClock.advance(1);
    await second.settled(runId);
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status).toBe("succeeded");
    expect(detail.steps[0]).toMatchObject({ status: "succeeded", attempt: 2, retryAt: null });
    const all = await events(runId);
    expect(all.map((event) => event.seq)).toEqual(all.map((_, index) => index + 1));
    expect(ofType(all, "node-started").map((event) => event.payload.attempt)).toEqual([1, 2]);
    expect(ofType(all, "run-resumed")).toHaveLength(1);
  });

  it("lets a waiting retry go at a shutdown, stored as it is, and the next drive waits out the rest and counts on", async () => {
    scripts.set("handed-back", [{ fail: "busy" }, "ok"]);
    const firstClock = new FakeClock(clock.now());
    const worker = newEngine(firstClock);
    const workflow = await createWorkflow(
      { name: "handed back", nodes: [step("fetch", "handed-back", { execution: { retry: { maxAttempts: 2, initialDelayMs: 30_000 } } })] },
      temp.database,
    );
    const { runId } = await createRun(workflow.id, {}, {}, temp.database);
    const driven = worker.drive(runId);
    await waitFor(() => firstClock.sleepers() === 1);
    await firstClock.advance(10_000);
    // A shutdown: nothing is in flight but a wait, so the run leaves at once, stored as retrying.
    await worker.handBackAll(60_000);
    expect(await driven).toBe("handed-back");
    expect((await getRunDetail(runId, temp.database)).steps[0]).toMatchObject({ status: "retrying", attempt: 1 });

    const nextClock = new FakeClock(firstClock.now());
    const next = newEngine(nextClock);
    const drivenAgain = next.drive(runId);
    await waitFor(() => nextClock.sleepers() === 1);
    expect(nextClock.wakesIn()).toEqual([20_000]);
    await nextClock.advance(20_000);
    expect(await drivenAgain).toBe("finished");
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.status).toBe("succeeded");
    expect(detail.steps[0]).toMatchObject({ status: "succeeded", attempt: 2 });
    // Driven on quietly: nothing was cut off, so no resume is announced and no attempt counted twice.
    const all = await events(runId);
    expect(ofType(all, "run-resumed")).toEqual([]);
    expect(ofType(all, "node-started").map((event) => event.payload.attempt)).toEqual([1, 2]);
  });

  it("handles a step a restart interrupted like any failure: its error path is taken, and it is not run again", async () => {
    const definition: WorkflowDefinitionInput = {
      name: "interrupted",
      mode: "bypass",
      nodes: [
        step("send", "interrupted", { arguments: { label: "interrupted", destructive: true }, execution: { onError: "error-edge", retry: { maxAttempts: 3 } } }),
        { id: "notice", kind: "output", value: "{{ nodes.send.output.error.kind }}" },
      ],
      edges: [{ id: "send-error", source: "send", target: "notice", sourceHandle: "error" }],
    };
    scripts.set("interrupted", ["hang"]);
    const firstClock = new FakeClock(clock.now());
    const { runId } = await startRun(definition, newEngine(firstClock));
    await waitFor(() => (calls.get("interrupted") ?? []).length === 1);
    const second = newEngine(new FakeClock(firstClock.now()));
    await second.resumeAll();
    await second.settled(runId);
    const detail = await getRunDetail(runId, temp.database);
    expect(detail).toMatchObject({ status: "succeeded", output: "interrupted" });
    expect(detail.steps[0]).toMatchObject({ status: "failed", error: INTERRUPTED, errorKind: "interrupted", attempt: 1 });
    expect(calls.get("interrupted")).toHaveLength(1);
  });
});
