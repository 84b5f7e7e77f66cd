import { mkdtempSync, readFileSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { allTools, NO_SECRETS, Tool, ToolPool, ToolResult } from "@/lib/tools";
import { waitFor } from "@/lib/tools/testing/processes";
import { createWorkflow } from "@/lib/persistence";
import { createRun, getRunDetail, listApprovals, readEvents } from "@/lib/persistence/run-queries";
import { PrismaRunStore } from "@/lib/persistence/run-store";
import { openTempDatabase, type TempDatabase } from "@/lib/persistence/temp-database";
import type { RunDetail } from "@/lib/contracts/run";
import type { WorkflowDefinitionInput } from "@/lib/workflow/definition";
import { RunEventBus } from "@/lib/workflow/event-bus";
import { RunEngine } from "@/lib/workflow/run-engine";
import { validateWorkflow } from "@/lib/workflow/validate";
import { workflowLookup } from "./error-workflows";
import { childRunEngine, mortalStore, SendTool } from "./testing/child-run-engines";

/**
 * For each steps on the real engine and a real SQLite file: each item is a
 * run of the loop's body (its own steps and approvals), at most
 * `concurrency` at once, the results collected in order; a failing item
 * stops the loop or leaves its error in its place; a kill mid-loop resumes
 * the same attempt, the items done staying done.
 */

/** Splits its text on commas: a list for a loop to go through. */
class ListTool extends Tool<{ text: string }> {
  name = "split";
  title = "Split";
  description = "Splits text on commas.";
  inputModel = z.object({ text: z.string() });
  override isReadOnly(): boolean {
    return true;
  }
  override async call(args: { text: string }): Promise<ToolResult> {
    const items = args.text.split(",").map((each, index) => ({ name: each, rank: index + 1 }));
    return ToolResult.ok(`${items.length} items`, { items });
  }
}

/** Works on one item until the test lets it go; fails on "bad". Counts how many run at once. */
class HeldTool extends Tool<{ name: string }> {
  name = "held";
  title = "Held";
  description = "Upper-cases a name when released.";
  inputModel = z.object({ name: z.string() });
  active = 0;
  mostAtOnce = 0;
  started: string[] = [];
  private readonly waiting: (() => void)[] = [];
  override isReadOnly(): boolean {
    return true;
  }
  /** Lets every call waiting now finish. */
  releaseAll(): void {
    for (const release of this.waiting.splice(0)) release();
  }
  get held(): number {
    return this.waiting.length;
  }
  override async call(args: { name: string }): Promise<ToolResult> {
    this.started.push(args.name);
    this.active += 1;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.active);
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active -= 1;
    if (args.name === "bad") return ToolResult.error(`“${args.name}” is not a name.`, { kind: "invalid-input" });
    // A failure that says trying again may help (retryable).
    if (args.name === "down") return ToolResult.error("The name service is down.", { kind: "unavailable" });
    return ToolResult.ok(args.name.toUpperCase());
  }
}

let temp: TempDatabase;
let bus: RunEventBus;
let engine: RunEngine;
let workRoot: string;
const held = new HeldTool();
const send = new SendTool();
const pool = new ToolPool([...allTools(), new ListTool(), held, send]);

function newEngine(store?: PrismaRunStore): RunEngine {
  return childRunEngine({ database: temp.database, bus, pool, workRoot, ...(store ? { store } : {}) });
}

beforeAll(async () => {
  temp = await openTempDatabase();
  bus = new RunEventBus();
  workRoot = realpathSync(mkdtempSync(path.join(os.tmpdir(), "engine-foreach-")));
  engine = newEngine();
});

afterAll(async () => {
  await engine.idle();
  await temp.close();
});

/** Run inputs (names) → Split → For each (body: `body`) → Output of the loop's results. */
function loopWorkflow(name: string, loop: Record<string, unknown>, body: WorkflowDefinitionInput["nodes"]): WorkflowDefinitionInput {
  return {
    name,
    nodes: [
      { id: "in", kind: "input", fields: [{ name: "names", required: true }] },
      { id: "split", kind: "tool", tool: "split", arguments: { text: "{{ inputs.names }}" } },
      { id: "loop", kind: "foreach", label: "Each name", list: "{{ nodes.split.data.items }}", ...loop },
      ...body,
      { id: "out", kind: "output", value: "{{ nodes.loop.data }}" },
    ],
    edges: [
      { id: "in-split", source: "in", target: "split" },
      { id: "split-loop", source: "split", target: "loop" },
      { id: "loop-body", source: "loop", target: body[0]!.id, sourceHandle: "item" },
      ...body.slice(1).map((node, index) => ({ id: `body-${index}`, source: body[index]!.id, target: node.id })),
      { id: "loop-out", source: "loop", target: "out", sourceHandle: "done" },
    ],
  };
}

async function saved(definition: WorkflowDefinitionInput): Promise<string> {
  return (await createWorkflow(definition, temp.database)).id;
}

async function start(workflowId: string, names: string, on: RunEngine = engine): Promise<string> {
  const { runId } = await createRun(workflowId, { names }, {}, temp.database);
  await on.start(runId);
  return runId;
}

async function finishedRun(runId: string): Promise<RunDetail> {
  await waitFor(async () => !["running", "awaiting_input"].includes((await getRunDetail(runId, temp.database)).status), 20_000, `run ${runId} to finish`);
  return getRunDetail(runId, temp.database);
}

/** The pending approvals of `runId`'s items. */
async function pendingItemApprovals(runId: string) {
  return (await listApprovals({ status: "pending" }, temp.database)).filter((approval) => approval.calledBy?.runId === runId);
}

/** Approves `count` item approvals of `runId` with `on`, as they come. */
async function approveItems(on: RunEngine, runId: string, count: number): Promise<void> {
  for (let decided = 0; decided < count; ) {
    await waitFor(async () => (await pendingItemApprovals(runId)).length > 0, 20_000, "an item's approval");
    for (const approval of await pendingItemApprovals(runId)) {
      await on.decide(approval.id, { decision: "approve", feedback: null, decidedBy: "tester" });
      decided += 1;
    }
  }
}

/** Lets the held calls go, a batch at a time, until the run finishes; each batch is at most `limit` calls. */
async function releaseInBatches(runId: string, limit: number): Promise<void> {
  for (;;) {
    await waitFor(async () => held.held > 0 || !["running", "awaiting_input"].includes((await getRunDetail(runId, temp.database)).status), 20_000, "a held item or the run's end");
    if (held.held === 0) return;
    expect(held.active).toBeLessThanOrEqual(limit);
    held.releaseAll();
  }
}

describe("a For each step", () => {
  it("for-each with concurrency and a failing item: at most `concurrency` items at once, results in order, a failing item's error in its place when the loop goes on", async () => {
    const workflowId = await saved(loopWorkflow("Names, two at a time", { concurrency: 2, onItemFailure: "continue" }, [{ id: "shout", kind: "tool", tool: "held", arguments: { name: "{{ item.name }}" } }]));
    held.mostAtOnce = 0;
    const runId = await start(workflowId, "ada,bad,cy,dee,eve");
    await releaseInBatches(runId, 2);
    const detail = await finishedRun(runId);
    expect(detail.status, detail.error ?? "").toBe("succeeded");
    expect(held.mostAtOnce).toBe(2);
    expect(detail.output).toEqual(["ADA", { error: { message: expect.stringContaining("“bad” is not a name."), kind: "invalid-input", item: 1 } }, "CY", "DEE", "EVE"]);
    // One run per item, linked to the step and its attempt, in the list's order; the body was no step of the loop's run.
    expect(detail.childRuns.map((child) => [child.kind, child.nodeId, child.attempt, child.item, child.status])).toEqual([
      ["for-each", "loop", 1, 0, "succeeded"],
      ["for-each", "loop", 1, 1, "failed"],
      ["for-each", "loop", 1, 2, "succeeded"],
      ["for-each", "loop", 1, 3, "succeeded"],
      ["for-each", "loop", 1, 4, "succeeded"],
    ]);
    expect(detail.steps.find((step) => step.nodeId === "shout")?.status).toBe("skipped");
    const item = await getRunDetail(detail.childRuns[2]!.id, temp.database);
    expect(item.definition.nodes.map((node) => node.id)).toEqual(["shout"]);
    expect(item.loop).toMatchObject({ nodeId: "loop", index: 2, count: 5, item: { name: "cy", rank: 3 } });
    expect(item.sourceRun).toMatchObject({ id: runId, kind: "for-each", nodeId: "loop" });
    const progress = (await readEvents(runId, 0, 500, temp.database)).flatMap((event) => (event.type === "node-progress" && "message" in event.payload ? [event.payload.message] : []));
    expect(progress.at(-1)).toBe("5 of 5 done, 1 failed");
  });

  it("a failing item stops the loop when it says stop: the step fails with the item's error and no item after it starts", async () => {
    const workflowId = await saved(loopWorkflow("Names, one at a time", { concurrency: 1 }, [{ id: "shout", kind: "tool", tool: "held", arguments: { name: "{{ item.name }}" } }]));
    held.started = [];
    const runId = await start(workflowId, "ann,bad,cat");
    await releaseInBatches(runId, 1);
    const detail = await finishedRun(runId);
    expect(detail.status).toBe("failed");
    expect(detail.error).toContain("Item 2 of 3 failed: ");
    expect(detail.steps.find((step) => step.nodeId === "loop")).toMatchObject({ status: "failed", errorKind: "invalid-input" });
    expect(held.started).toEqual(["ann", "bad"]);
    expect(detail.childRuns).toHaveLength(2);
  });

  it("is never retried as a whole, so no item that succeeded runs again: retries happen per item, on the steps inside the loop", async () => {
    // Every node retries a retryable failure up to three times, the loop's own step and the body's alike.
    const workflowId = await saved({
      ...loopWorkflow("Names, retried", { concurrency: 1 }, [{ id: "shout", kind: "tool", tool: "held", arguments: { name: "{{ item.name }}" } }]),
      execution: { retry: { maxAttempts: 3, initialDelayMs: 0 } },
    });
    held.started = [];
    const runId = await start(workflowId, "ann,down,cat");
    await releaseInBatches(runId, 1);
    const detail = await finishedRun(runId);
    expect(detail.status).toBe("failed");
    expect(detail.error).toContain("Item 2 of 3 failed: ");
    // "ann" once (a second attempt of the loop would have run it again), "down" three times in its own item's run.
    expect(held.started).toEqual(["ann", "down", "down", "down"]);
    expect(detail.steps.find((step) => step.nodeId === "loop")).toMatchObject({ status: "failed", attempt: 1, errorKind: "unavailable" });
    expect(detail.childRuns.map((child) => [child.attempt, child.item, child.status])).toEqual([
      [1, 0, "succeeded"],
      [1, 1, "failed"],
    ]);
  });

  it("refuses retries of its own on its field, saying where they belong", async () => {
    const definition = loopWorkflow("Retried loop", { execution: { retry: { maxAttempts: 2 } } }, [{ id: "shout", kind: "tool", tool: "held", arguments: { name: "{{ item.name }}" } }]);
    const result = await validateWorkflow(definition, { pool, secrets: NO_SECRETS, workflows: workflowLookup(temp.database, null) });
    expect(result.problems).toContainEqual(expect.objectContaining({ nodeId: "loop", field: "execution.retry", severity: "error", message: expect.stringContaining("Set retries on the steps inside its loop") }));
  });

  it("an item's failure starts no error workflow of its own: the loop's run is the one whose failure does, once", async () => {
    const reports: string[] = [];
    const reporting = childRunEngine({ database: temp.database, bus, pool, workRoot, engine: { startErrorWorkflow: async (failure) => (reports.push(failure.runId), null) } });
    const errorWorkflowId = await saved({ name: "On error", nodes: [{ id: "in", kind: "input", fields: [] }], edges: [] });
    const workflowId = await saved({
      ...loopWorkflow("Failing names", { concurrency: 1 }, [{ id: "shout", kind: "tool", tool: "held", arguments: { name: "{{ item.name }}" } }]),
      errorWorkflowId,
    });
    const runId = await start(workflowId, "bad", reporting);
    await releaseInBatches(runId, 1);
    expect((await finishedRun(runId)).status).toBe("failed");
    await reporting.idle();
    expect(reports).toEqual([runId]);
  });

  it("a SIGKILL during a for-each loop resumes the same attempt: items done stay done, the others finish, each item's approval names the item", async () => {
    const workflowId = await saved(loopWorkflow("Send each", { concurrency: 2 }, [{ id: "send", kind: "tool", tool: "send", label: "Send the name", arguments: { label: "{{ item.name }}-{{ index }}" } }]));
    const mortal = mortalStore(temp.database);
    const first = newEngine(mortal.store);
    const runId = await start(workflowId, "p,q,r,s", first);
    const pendingOf = () => pendingItemApprovals(runId);
    await waitFor(async () => (await pendingOf()).length === 2, 20_000, "two items waiting for a person");
    const [firstItem] = (await pendingOf()).sort((a, b) => a.calledBy!.item!.index - b.calledBy!.item!.index);
    expect(firstItem).toMatchObject({ workflowName: "Send each", nodeLabel: "Send the name", calledBy: { nodeLabel: "Each name", item: { index: 0, count: 4 } } });
    await first.decide(firstItem!.id, { decision: "approve", feedback: null, decidedBy: "tester" });
    await waitFor(async () => (await getRunDetail(runId, temp.database)).childRuns.length === 3, 20_000, "the third item to start after the first is done");
    const doneBefore = (await getRunDetail(runId, temp.database)).childRuns[0]!;
    expect(doneBefore.status).toBe("succeeded");
    await mortal.kill();

    const restarted = newEngine();
    await restarted.resumeAll();
    // Every item left waits for its decision in the inbox; approving them finishes the loop.
    await approveItems(restarted, runId, 3);
    const detail = await finishedRun(runId);
    expect(detail.status, detail.error ?? "").toBe("succeeded");
    expect(detail.output).toEqual([{ sent: "p-0" }, { sent: "q-1" }, { sent: "r-2" }, { sent: "s-3" }]);
    expect(detail.childRuns.map((child) => child.item)).toEqual([0, 1, 2, 3]);
    // The item done before the kill is the same run, not run again.
    expect(detail.childRuns[0]!.id).toBe(doneBefore.id);
    expect(send.sent.filter((label) => label === "p-0")).toHaveLength(1);
    const events = await readEvents(runId, 0, 500, temp.database);
    expect(events.filter((event) => event.type === "node-started" && event.nodeId === "loop")).toHaveLength(1);
    expect(events.filter((event) => event.type === "child-run-started")).toHaveLength(4);
    await restarted.idle();
  });

  it("a kill after an item's run is made but before the loop says so: the restarted loop says it once, so the run view lists every item", async () => {
    const workflowId = await saved(loopWorkflow("Send both", { concurrency: 1 }, [{ id: "send", kind: "tool", tool: "send", label: "Send the name", arguments: { label: "{{ item.name }}" } }]));
    // Dies exactly as the first item's announcement is about to be stored: its run exists, nothing says so.
    const mortal = mortalStore(temp.database, { diesAt: (commit) => commit.events.some((event) => event.type === "child-run-started") });
    const runId = await start(workflowId, "p,q", newEngine(mortal.store));
    await mortal.died;
    await mortal.kill();
    expect((await getRunDetail(runId, temp.database)).childRuns).toHaveLength(1);
    expect((await readEvents(runId, 0, 500, temp.database)).filter((event) => event.type === "child-run-started")).toEqual([]);

    const restarted = newEngine();
    await restarted.resumeAll();
    await approveItems(restarted, runId, 2);
    const detail = await finishedRun(runId);
    expect(detail.status, detail.error ?? "").toBe("succeeded");
    const announced = (await readEvents(runId, 0, 500, temp.database)).filter((event) => event.type === "child-run-started");
    expect(announced.map((event) => [event.payload.runId, event.payload.item])).toEqual(detail.childRuns.map((child) => [child.id, child.item]));
    await restarted.idle();
  });
});

describe("validation of a For each step", () => {
  const check = async (definition: WorkflowDefinitionInput) => (await validateWorkflow(definition, { pool, secrets: NO_SECRETS, workflows: workflowLookup(temp.database, null) })).problems;

  it("names on its fields a list that is not one upstream template, a body that leaks out of the loop or is fed from outside, and item used outside a loop", async () => {
    const body = [{ id: "shout", kind: "tool" as const, tool: "held", arguments: { name: "{{ item.name }}" } }];
    expect(await check(loopWorkflow("Fine", {}, body))).toEqual([]);
    expect(await check(loopWorkflow("No list", { list: "" }, body))).toContainEqual(expect.objectContaining({ nodeId: "loop", field: "list", message: expect.stringContaining("Choose the list") }));
    expect(await check(loopWorkflow("Two things", { list: "{{ nodes.split.data.items }} and more" }, body))).toContainEqual(expect.objectContaining({ nodeId: "loop", field: "list" }));
    expect(await check(loopWorkflow("Not upstream", { list: "{{ nodes.out.data }}" }, body))).toContainEqual(expect.objectContaining({ nodeId: "loop", field: "list", message: expect.stringContaining("not upstream") }));

    const leaking = loopWorkflow("Leaks", {}, body);
    leaking.edges!.push({ id: "shout-out", source: "shout", target: "out" });
    expect(await check(leaking)).toContainEqual(expect.objectContaining({ nodeId: "shout", field: "edges", message: expect.stringContaining("outside it") }));

    const fedFromOutside = loopWorkflow("Fed", {}, body);
    fedFromOutside.edges!.push({ id: "split-shout", source: "split", target: "shout" });
    expect(await check(fedFromOutside)).toContainEqual(expect.objectContaining({ nodeId: "shout", field: "edges", message: expect.stringContaining("from outside it") }));

    const noBody = loopWorkflow("Empty", {}, body);
    noBody.edges = noBody.edges!.filter((edge) => edge.id !== "loop-body");
    expect(await check(noBody)).toContainEqual(expect.objectContaining({ nodeId: "loop", field: "body" }));
    // Without the loop, {{ item }} refers to nothing.
    expect(await check({ ...noBody, nodes: noBody.nodes.filter((node) => node.id !== "loop") })).toContainEqual(
      expect.objectContaining({ nodeId: "shout", message: expect.stringContaining("item and index exist only") }),
    );
  });

  it("the README's tour is the example file, word for word, and a sound workflow", async () => {
    const file = path.join(import.meta.dirname, "../../examples/for-each.workflow.json");
    expect(readFileSync(path.join(import.meta.dirname, "../../README.md"), "utf8")).toContain(readFileSync(file, "utf8").trim());
    expect((await check(JSON.parse(readFileSync(file, "utf8")) as WorkflowDefinitionInput)).filter((problem) => problem.severity === "error")).toEqual([]);
  });

  it("refuses a concurrency outside 1 to 32 on its field", async () => {
    const problems = await check(loopWorkflow("Too many", { concurrency: 33 }, [{ id: "shout", kind: "tool", tool: "held", arguments: { name: "x" } }]));
    expect(problems).toContainEqual(expect.objectContaining({ nodeId: "loop", field: "concurrency" }));
  });
});

describe("a For each step in plan mode", () => {
  it("asks for the plan once, for the loop's run: its items go on as that run does then, asking before each change", async () => {
    const workflowId = await saved({
      ...loopWorkflow("Planned sends", { concurrency: 2 }, [{ id: "send", kind: "tool", tool: "send", arguments: { label: "planned-{{ index }}" } }]),
      mode: "plan",
    });
    const runId = await start(workflowId, "x,y");
    let plan: Awaited<ReturnType<typeof listApprovals>>[number] | undefined;
    await waitFor(async () => ([plan] = await listApprovals({ runId, status: "pending" }, temp.database)).length > 0, 20_000, "the plan");
    expect(plan!.kind).toBe("plan");
    await engine.decide(plan!.id, { decision: "approve", feedback: null, decidedBy: "tester" });
    const itemAsks = async () => (await listApprovals({ status: "pending" }, temp.database)).filter((approval) => approval.calledBy?.runId === runId);
    await waitFor(async () => (await itemAsks()).length === 2, 20_000, "each item's send to ask");
    expect((await itemAsks()).map((approval) => approval.kind)).toEqual(["network", "network"]);
    for (const approval of await itemAsks()) await engine.decide(approval.id, { decision: "approve", feedback: null, decidedBy: "tester" });
    const detail = await finishedRun(runId);
    expect(detail.status, detail.error ?? "").toBe("succeeded");
    expect((await getRunDetail(detail.childRuns[0]!.id, temp.database)).permissions).toMatchObject({ mode: "default" });
  });
});
