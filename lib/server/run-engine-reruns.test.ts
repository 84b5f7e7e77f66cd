import { appendFileSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { allTools, NO_SECRETS, Tool, ToolPool, ToolResult, type PermissionRequest, type ToolContext } from "@/lib/tools";
import { waitFor } from "@/lib/tools/testing/processes";
import { createWorkflow } from "@/lib/persistence";
import { createRun, findRunnableVersion, getRunDetail, insertRun, listApprovals, readEvents } from "@/lib/persistence/run-queries";
import { PrismaRunStore } from "@/lib/persistence/run-store";
import { openTempDatabase, type TempDatabase } from "@/lib/persistence/temp-database";
import { DECISIONS_BY_KIND } from "@/lib/contracts/approval";
import type { RerunKind, RunDetail } from "@/lib/contracts/run";
import type { WorkflowDefinitionInput } from "@/lib/workflow/definition";
import { RunEventBus } from "@/lib/workflow/event-bus";
import { RunEngine } from "@/lib/workflow/run-engine";
import type { RunEvent } from "@/lib/workflow/run-types";
import { planTestRun } from "@/lib/workflow/test-run-plan";
import { rerunStart } from "./rerun-start";
import { LocalRunDriver } from "./run-driver";

/**
 * A retry from the failed step, on the real engine and a real SQLite file:
 * the steps that succeeded keep their results and do not run again (a step
 * that appends to a real file appends once), what follows reads the kept
 * results, and a destructive step that runs again asks a person again. And a
 * test run from the editor, read from storage: its pinned step kept, what is
 * not on its way left out, the step it tests gated like any.
 */

/** Appends a line to a real file, after asking (a write): how many lines the file then has is its result. */
class AppendLineTool extends Tool<{ line: string }> {
  name = "append_line";
  title = "Append a line";
  description = "Appends a line to the log file.";
  inputModel = z.object({ line: z.string() });
  constructor(private readonly file: string) {
    super();
  }
  override isReadOnly(): boolean {
    return false;
  }
  override async describeAction(args: { line: string }): Promise<PermissionRequest[]> {
    return [{ kind: "write", path: this.file, preview: { kind: "text", text: `+${args.line}` } }];
  }
  override async call(args: { line: string }): Promise<ToolResult> {
    appendFileSync(this.file, `${args.line}\n`);
    const lines = readFileSync(this.file, "utf8").trimEnd().split("\n").length;
    return ToolResult.ok(`${lines} line(s)`, { lines });
  }
}

/** Sends something after asking (a POST); fails while `failing` holds its label, and counts its calls. */
class SendTool extends Tool<{ label: string }> {
  name = "send";
  title = "Send";
  description = "Sends what the test says.";
  capabilities = ["web.request"] as const;
  inputModel = z.object({ label: z.string() });
  readonly failing = new Set<string>();
  readonly calls: string[] = [];
  override isReadOnly(): boolean {
    return false;
  }
  override async describeAction(args: { label: string }): Promise<PermissionRequest[]> {
    const url = `https://example.com/${args.label}`;
    return [{ kind: "network", method: "POST", url, reason: `Send ${args.label}.`, preview: { kind: "request", method: "POST", url, headers: [], body: args.label } }];
  }
  override async call(args: { label: string }, _ctx: ToolContext): Promise<ToolResult> {
    this.calls.push(args.label);
    if (this.failing.has(args.label)) return ToolResult.error(`${args.label} was refused by the other side`, { kind: "failed" });
    return ToolResult.ok(`sent ${args.label}`, { label: args.label });
  }
}

let temp: TempDatabase;
let store: PrismaRunStore;
let bus: RunEventBus;
let engine: RunEngine;
let driver: LocalRunDriver;
let logFile: string;
let send: SendTool;

beforeAll(async () => {
  temp = await openTempDatabase();
  store = new PrismaRunStore(temp.database);
  bus = new RunEventBus();
  const workRoot = realpathSync(mkdtempSync(path.join(os.tmpdir(), "engine-reruns-")));
  logFile = path.join(workRoot, "log.txt");
  send = new SendTool();
  const append = new AppendLineTool(logFile);
  engine = new RunEngine({ store, bus, pool: () => new ToolPool([...allTools(), append, send]), secrets: NO_SECRETS, workingDirectory: workRoot });
  driver = new LocalRunDriver(engine, temp.database);
});

afterAll(async () => {
  await engine.idle();
  await temp.close();
});

/** Run inputs → Append (destructive) → Send (destructive, fails while told to) → Output, which reads both. */
const workflow = (name: string): WorkflowDefinitionInput => ({
  name,
  nodes: [
    { id: "in", kind: "input", fields: [{ name: "who" }] },
    { id: "append", kind: "tool", tool: "append_line", arguments: { line: "{{ inputs.who }} was here" } },
    { id: "send", kind: "tool", tool: "send", arguments: { label: name } },
    { id: "out", kind: "output", value: "{{ nodes.append.output }}, then {{ nodes.send.output }}" },
  ],
  edges: [
    { id: "in-append", source: "in", target: "append" },
    { id: "append-send", source: "append", target: "send" },
    { id: "send-out", source: "send", target: "out" },
  ],
});

const lines = () => readFileSync(logFile, "utf8").trimEnd().split("\n");

/** Approves, for this time only, each approval of the run as it is asked for, until the run finishes; returns the node of each. */
async function approveUntilFinished(runId: string): Promise<string[]> {
  const approved: string[] = [];
  for (;;) {
    let pending: Awaited<ReturnType<typeof listApprovals>>[number] | "finished" | undefined;
    await waitFor(
      async () => {
        const detail = await getRunDetail(runId, temp.database);
        if (detail.status !== "running" && detail.status !== "awaiting_input") pending = "finished";
        else [pending] = await listApprovals({ runId, status: "pending" }, temp.database);
        return pending !== undefined;
      },
      20_000,
      `an approval of run ${runId}, or its end`,
    );
    if (pending === undefined || pending === "finished") break;
    approved.push(pending.nodeId);
    // For this time only: a write once, a request approve (neither grants anything for later runs).
    await engine.decide(pending.id, { decision: DECISIONS_BY_KIND[pending.kind][0]!, feedback: null, decidedBy: "tester" });
  }
  await engine.settled(runId);
  return approved;
}

async function failedRun(name: string): Promise<RunDetail> {
  const { id } = await createWorkflow(workflow(name), temp.database);
  send.failing.add(name);
  const { runId } = await createRun(id, { who: "Ada" }, {}, temp.database);
  await engine.start(runId);
  expect(await approveUntilFinished(runId)).toEqual(["append", "send"]);
  const source = await getRunDetail(runId, temp.database);
  expect(source.status).toBe("failed");
  send.failing.delete(name);
  return source;
}

/** Creates the run a person's retry (or run again) creates, the way the API does, without starting it. */
async function createRerun(source: RunDetail, kind: RerunKind) {
  const version = await findRunnableVersion(source.workflowId, source.version, temp.database);
  const start = rerunStart(source, version, kind);
  return { version, start, run: await insertRun(version, source.inputs, temp.database, start) };
}

const ofType = (events: RunEvent[], type: RunEvent["type"]) => events.filter((event) => event.type === type);

describe("a retry from the failed step", () => {
  it("keeps what succeeded (the file is appended to once), feeds its results on, and asks again for the step that runs again", async () => {
    const source = await failedRun("retry keeps");
    expect(lines()).toEqual(["Ada was here"]);
    const version = await findRunnableVersion(source.workflowId, source.version, temp.database);

    const retry = await driver.start(version, source.inputs, rerunStart(source, version, "retry-from-failure"));
    // The approval that let Send run in the source run is not reused: Send asks again; Append, kept, asks nothing.
    expect(await approveUntilFinished(retry.id)).toEqual(["send"]);
    expect(lines()).toEqual(["Ada was here"]);

    const detail = await getRunDetail(retry.id, temp.database);
    expect(detail.status, detail.error ?? "").toBe("succeeded");
    expect(detail.output).toBe("1 line(s), then sent retry keeps");
    expect(detail.inputs).toEqual({ who: "Ada" });
    expect(detail.version).toBe(source.version);
    expect(detail.steps.map((step) => [step.nodeId, step.status, step.carriedFromRunId])).toEqual([
      ["in", "succeeded", source.id],
      ["append", "succeeded", source.id],
      ["send", "succeeded", null],
      ["out", "succeeded", null],
    ]);
    // The kept step's record is the source's: its result, its arguments, when it ran.
    const sourceAppend = source.steps.find((step) => step.nodeId === "append")!;
    expect(detail.steps[1]).toMatchObject({ output: sourceAppend.output, input: sourceAppend.input, startedAt: sourceAppend.startedAt, finishedAt: sourceAppend.finishedAt });

    const events = await readEvents(retry.id, 0, 1000, temp.database);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(events[0]).toMatchObject({ type: "run-started", payload: { source: { runId: source.id, kind: "retry-from-failure" } } });
    expect(ofType(events, "node-carried-over").map((event) => [event.nodeId, (event.payload as { fromRunId: string }).fromRunId])).toEqual([
      ["in", source.id],
      ["append", source.id],
    ]);
    expect(ofType(events, "node-started").map((event) => event.nodeId)).toEqual(["send", "out"]);
    expect(ofType(events, "approval-requested").map((event) => event.nodeId)).toEqual(["send"]);

    // Linked both ways.
    expect(detail.sourceRun).toEqual({ id: source.id, workflowId: source.workflowId, workflowName: "retry keeps", status: "failed", kind: "retry-from-failure" });
    const sourceNow = await getRunDetail(source.id, temp.database);
    expect(sourceNow.reruns).toEqual([{ id: retry.id, kind: "retry-from-failure", status: "succeeded", version: source.version, createdAt: detail.createdAt }]);
  });

  it("keeps the same steps when a worker drives the stored run (nothing handed over in memory)", async () => {
    const source = await failedRun("retry from storage");
    const before = lines().length;
    const { run } = await createRerun(source, "retry-from-failure");
    // What a worker does with the run's job: read it from the database and drive it.
    await engine.start(run.id);
    expect(await approveUntilFinished(run.id)).toEqual(["send"]);
    expect(lines()).toHaveLength(before);
    const detail = await getRunDetail(run.id, temp.database);
    expect(detail.status, detail.error ?? "").toBe("succeeded");
    expect(detail.output).toBe(`${before} line(s), then sent retry from storage`);
    const events = await readEvents(run.id, 0, 1000, temp.database);
    expect(ofType(events, "node-carried-over").map((event) => event.nodeId)).toEqual(["in", "append"]);
    expect(ofType(events, "node-started").map((event) => event.nodeId)).toEqual(["send", "out"]);
  });

  it("a run again runs every step anew, asking again for each destructive one", async () => {
    const source = await failedRun("run again");
    const before = lines().length;
    const { run } = await createRerun(source, "run-again");
    expect(run.steps.every((step) => step.status === "pending" && step.carriedFromRunId === null)).toBe(true);
    await engine.start(run.id);
    expect(await approveUntilFinished(run.id)).toEqual(["append", "send"]);
    expect(lines()).toHaveLength(before + 1);
    const detail = await getRunDetail(run.id, temp.database);
    expect(detail.status).toBe("succeeded");
    expect(detail.sourceRun).toMatchObject({ id: source.id, kind: "run-again" });
  });
});

describe("a test run from the editor, driven from storage", () => {
  it("keeps the pinned step, leaves out what is not on its way, and asks before the destructive step it tests", async () => {
    const { id } = await createWorkflow(workflow("test run from storage"), temp.database);
    const version = await findRunnableVersion(id, undefined, temp.database);
    const before = lines().length;
    const pins = new Map([["append", { output: { content: "pinned lines", data: { lines: 99 } }, fromRunId: null }]]);
    const plan = planTestRun(version.definition, "send", "step", { pins, lastRun: new Map(), typed: new Map() });
    expect(plan).toMatchObject({ runs: ["in", "send"], excluded: ["out"], missing: [] });
    const run = await insertRun(version, { who: "Ada" }, temp.database, {
      trigger: { kind: "person", nodeId: null, test: true, testOf: { nodeId: "send", mode: "step" } },
      carried: plan.carried,
      excluded: plan.excluded,
    });
    // What a worker (or a restart before the run began) does: read it from the database and drive it.
    await engine.start(run.id);
    expect(await approveUntilFinished(run.id)).toEqual(["send"]);
    expect(lines()).toHaveLength(before);
    const detail = await getRunDetail(run.id, temp.database);
    expect(detail.status, detail.error ?? "").toBe("succeeded");
    expect(detail.steps.map((step) => [step.nodeId, step.status, step.carriedAs])).toEqual([
      ["in", "succeeded", null],
      ["append", "succeeded", "pin"],
      ["send", "succeeded", null],
      ["out", "skipped", null],
    ]);
    const events = await readEvents(run.id, 0, 1000, temp.database);
    expect(ofType(events, "node-carried-over").map((event) => [event.nodeId, event.payload])).toEqual([
      ["append", { fromRunId: null, as: "pin", output: { content: "pinned lines", data: { lines: 99 } } }],
    ]);
    expect(ofType(events, "node-skipped").map((event) => [event.nodeId, event.payload])).toEqual([["out", { reason: "not part of this test run" }]]);
    expect(ofType(events, "node-started").map((event) => event.nodeId)).toEqual(["in", "send"]);
  });
});
