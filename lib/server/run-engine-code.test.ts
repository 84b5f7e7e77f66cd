import { mkdtempSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { allTools, NO_SECRETS, Tool, ToolPool, ToolResult } from "@/lib/tools";
import { waitFor } from "@/lib/tools/testing/processes";
import { createWorkflow } from "@/lib/persistence";
import { createRun, getRunDetail } from "@/lib/persistence/run-queries";
import { openTempDatabase, type TempDatabase } from "@/lib/persistence/temp-database";
import type { RunDetail } from "@/lib/contracts/run";
import type { WorkflowDefinitionInput } from "@/lib/workflow/definition";
import { RunEventBus } from "@/lib/workflow/event-bus";
import type { RunEngine } from "@/lib/workflow/run-engine";
import { validateWorkflow } from "@/lib/workflow/validate";
import { workflowLookup } from "./error-workflows";
import { childRunEngine } from "./testing/child-run-engines";

/**
 * Code steps on the real engine, a real SQLite file and the real sandbox (QuickJS in worker processes): the code
 * reads the inputs and upstream results as templates do, its JSON result feeds the templates after it, once or per
 * item, inside a For each body too; its failures are the step's, with the line, and the next run works.
 */

/** Hands back fixed lists: customers and orders to join. */
class ShopTool extends Tool<{ what: "customers" | "orders" }> {
  name = "shop";
  title = "Shop";
  description = "Lists customers or orders.";
  inputModel = z.object({ what: z.enum(["customers", "orders"]) });
  override isReadOnly(): boolean {
    return true;
  }
  override async call(args: { what: "customers" | "orders" }): Promise<ToolResult> {
    const rows =
      args.what === "customers"
        ? [
            { id: 1, name: "Ann" },
            { id: 2, name: "Bo" },
          ]
        : [
            { customer: 1, total: 30 },
            { customer: 2, total: 5 },
            { customer: 1, total: 12 },
          ];
    return ToolResult.ok(`${rows.length} ${args.what}`, { rows });
  }
}

let temp: TempDatabase;
let engine: RunEngine;
const pool = new ToolPool([...allTools(), new ShopTool()]);

beforeAll(async () => {
  temp = await openTempDatabase();
  const workRoot = realpathSync(mkdtempSync(path.join(os.tmpdir(), "engine-code-")));
  engine = childRunEngine({ database: temp.database, bus: new RunEventBus(), pool, workRoot });
});

afterAll(async () => {
  await engine.idle();
  await temp.close();
});

/** Run inputs → Customers, Orders → the Code node `code` → Output of its data. */
function joinWorkflow(name: string, code: Record<string, unknown>): WorkflowDefinitionInput {
  return {
    name,
    nodes: [
      { id: "in", kind: "input", fields: [{ name: "least", type: "number", required: false, default: 10 }] },
      { id: "customers", kind: "tool", tool: "shop", arguments: { what: "customers" } },
      { id: "orders", kind: "tool", tool: "shop", arguments: { what: "orders" } },
      { id: "code", kind: "code", ...code },
      { id: "out", kind: "output", value: "{{ nodes.code.data }}" },
    ],
    edges: [
      { id: "a", source: "in", target: "customers" },
      { id: "b", source: "in", target: "orders" },
      { id: "c", source: "customers", target: "code" },
      { id: "d", source: "orders", target: "code" },
      { id: "e", source: "code", target: "out" },
    ],
  };
}

async function run(definition: WorkflowDefinitionInput, inputs: Record<string, unknown> = {}): Promise<RunDetail> {
  const workflowId = (await createWorkflow(definition, temp.database)).id;
  const { runId } = await createRun(workflowId, inputs, {}, temp.database);
  await engine.start(runId);
  await waitFor(async () => !["running", "awaiting_input"].includes((await getRunDetail(runId, temp.database)).status), 30_000, `run ${runId} to finish`);
  return getRunDetail(runId, temp.database);
}

const stepError = (detail: RunDetail) => detail.steps.find((step) => step.nodeId === "code")?.error;

const problemsOf = async (definition: WorkflowDefinitionInput) => (await validateWorkflow(definition, { pool, secrets: NO_SECRETS, workflows: workflowLookup(temp.database, null) })).problems;

const JOIN = `
const names = Object.fromEntries(nodes.customers.data.rows.map((c) => [c.id, c.name]));
return nodes.orders.data.rows
  .filter((order) => order.total >= inputs.least)
  .map((order) => ({ name: names[order.customer], total: order.total }))
  .sort((a, b) => a.total - b.total);`;

describe("a Code step", () => {
  it("joins two upstream lists with the run's inputs, and its JSON result is what the templates after it read", async () => {
    const detail = await run(joinWorkflow("Join", { code: JOIN }), { least: 10 });
    expect(detail.status, detail.error ?? "").toBe("succeeded");
    expect(detail.output).toEqual([
      { name: "Ann", total: 12 },
      { name: "Ann", total: 30 },
    ]);
    expect(detail.steps.find((step) => step.nodeId === "code")).toMatchObject({ status: "succeeded", input: { mode: "once" } });
  });

  it("runs once per item of a list with item and index, each failure in its place when it goes on, or failing the step when it stops", async () => {
    const code = "if (item.total < 10) throw new Error('too small: ' + item.total);\nreturn { place: index, doubled: item.total * 2 };";
    const going = await run(joinWorkflow("Each, going on", { code, mode: "each", list: "{{ nodes.orders.data.rows }}", onItemFailure: "continue" }));
    expect(going.status, going.error ?? "").toBe("succeeded");
    expect(going.output).toEqual([
      { place: 0, doubled: 60 },
      { error: { message: expect.stringMatching(/^Line 1, column \d+: .*too small: 5/), kind: "failed", item: 1 } },
      { place: 2, doubled: 24 },
    ]);
    expect(going.steps.find((step) => step.nodeId === "code")?.input).toEqual({ mode: "each", list: "{{ nodes.orders.data.rows }}", count: 3 });

    const stopping = await run(joinWorkflow("Each, stopping", { code, mode: "each", list: "{{ nodes.orders.data.rows }}" }));
    expect(stopping.status).toBe("failed");
    expect(stepError(stopping)).toMatch(/^Item 2 of 3 failed: Line 1, column \d+: .*too small: 5/);
  });

  it("inside a For each body, reads the loop's item and index", async () => {
    const detail = await run({
      name: "Loop with code",
      nodes: [
        { id: "in", kind: "input", fields: [] },
        { id: "orders", kind: "tool", tool: "shop", arguments: { what: "orders" } },
        { id: "loop", kind: "foreach", list: "{{ nodes.orders.data.rows }}", concurrency: 2 },
        { id: "label", kind: "code", code: "return `#${index + 1}: ${item.total} of ${nodes.orders.data.rows.length}`;" },
        { id: "out", kind: "output", value: "{{ nodes.loop.data }}" },
      ],
      edges: [
        { id: "a", source: "in", target: "orders" },
        { id: "b", source: "orders", target: "loop" },
        { id: "c", source: "loop", target: "label", sourceHandle: "item" },
        { id: "d", source: "loop", target: "out", sourceHandle: "done" },
      ],
    });
    expect(detail.status, detail.error ?? "").toBe("succeeded");
    expect(detail.output).toEqual(["#1: 30 of 3", "#2: 5 of 3", "#3: 12 of 3"]);
  });

  it("sees only the steps upstream of it, never a parallel branch's, even one that surely finished first", async () => {
    const detail = await run({
      name: "Parallel branch",
      nodes: [
        { id: "in", kind: "input", fields: [] },
        { id: "customers", kind: "tool", tool: "shop", arguments: { what: "customers" } },
        { id: "orders", kind: "tool", tool: "shop", arguments: { what: "orders" } },
        // 100 ms on the code's own line: the customers' quick branch has long finished when the code runs.
        { id: "pause", kind: "code", code: "const until = Date.now() + 100;\nwhile (Date.now() < until) {}\nreturn 1;" },
        { id: "code", kind: "code", code: "return Object.keys(nodes).sort();" },
        { id: "out", kind: "output", value: "{{ nodes.code.data }}" },
      ],
      edges: [
        { id: "a", source: "in", target: "customers" },
        { id: "b", source: "in", target: "orders" },
        { id: "c", source: "orders", target: "pause" },
        { id: "d", source: "pause", target: "code" },
        { id: "e", source: "code", target: "out" },
        { id: "f", source: "customers", target: "out" },
      ],
    });
    expect(detail.status, detail.error ?? "").toBe("succeeded");
    expect(detail.steps.find((step) => step.nodeId === "customers")?.status).toBe("succeeded");
    expect(detail.output).toEqual(["in", "orders", "pause"]);
  });

  it("fails with the line of a thrown error, and with the limit it hit; the next run works", async () => {
    const thrown = await run(joinWorkflow("Throws", { code: "const rows = nodes.orders.data.rows;\nreturn rows[99].total;" }));
    expect(thrown.status).toBe("failed");
    expect(stepError(thrown)).toMatch(/^Line 2, column \d+: TypeError/);

    const endless = await run(joinWorkflow("Endless", { code: "for (;;) {}", timeLimitMs: 200 }));
    expect(endless.status).toBe("failed");
    expect(endless.error).toContain("time limit");
    expect(endless.steps.find((step) => step.nodeId === "code")).toMatchObject({ status: "failed", errorKind: "timeout" });

    const notJson = await run(joinWorkflow("Returns nothing", { code: "const x = 1;" }));
    expect(notJson.status).toBe("failed");
    expect(notJson.error).toMatch(/JSON/);

    const after = await run(joinWorkflow("Join again", { code: JOIN }), { least: 20 });
    expect(after.output).toEqual([{ name: "Ann", total: 30 }]);
  });

  it("reads ${NAME} as text: no secret reaches the sandbox", async () => {
    const detail = await run(joinWorkflow("Secret text", { code: "return '${DB_PASSWORD}' + typeof process;" }));
    expect(detail.output).toBe("${DB_PASSWORD}undefined");
  });

  it("is checked before any run: a syntax error names its line and column on the code field, an each mode needs its list", async () => {
    const problems = await problemsOf(joinWorkflow("Broken", { code: "const total = 1;\nreturn total +;", mode: "each", list: "" }));
    const syntax = problems.find((problem) => problem.nodeId === "code" && problem.field === "code");
    expect(syntax).toMatchObject({ severity: "error", at: { line: 2 }, message: expect.stringMatching(/^Line 2, column \d+: /) });
    expect(problems).toContainEqual(expect.objectContaining({ nodeId: "code", field: "list", message: expect.stringContaining("Choose the list") }));
    expect(await problemsOf(joinWorkflow("Fine", { code: JOIN }))).toEqual([]);
  });
});
