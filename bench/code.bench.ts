// The JavaScript sandbox's figures (lib/sandbox): QuickJS in worker processes.
// Run: npx tsx bench/code.bench.ts   (targets: cold start ≤ 150 ms, warm p50 ≤ 2 ms, 10,000 items ≤ 100 ms; printed, never asserted)
import { mkdtempSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SandboxPool, sharedSandboxPool, type JsonValue } from "../lib/sandbox";
import { NO_SECRETS, ToolPool } from "../lib/tools";
import { createWorkflow } from "../lib/persistence";
import { createRun } from "../lib/persistence/run-queries";
import { PrismaRunStore } from "../lib/persistence/run-store";
import { openTempDatabase } from "../lib/persistence/temp-database";
import type { WorkflowDefinitionInput } from "../lib/workflow/definition";
import { RunEventBus } from "../lib/workflow/event-bus";
import { RunEngine } from "../lib/workflow/run-engine";

const WARM_RUNS = 400;
const ITEM_COUNT = 10_000;

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

function rows(count: number): JsonValue[] {
  return Array.from({ length: count }, (_, index) => ({
    id: index,
    name: `customer ${index}`,
    email: `c${index}@example.com`,
    total: (index * 37) % 1000,
    country: ["DE", "FR", "US", "JP"][index % 4]!,
    active: index % 3 !== 0,
    createdAt: new Date(1_700_000_000_000 + index * 60_000).toISOString(),
    score: (index * 7919) % 101,
    tags: ["a", "b"],
    note: "x".repeat(20),
  }));
}

async function main(): Promise<void> {
  const inputs = { order: { id: 7, lines: [{ sku: "A", quantity: 2 }], customer: { name: "Ann" } } };

  // Cold: a new pool's first job starts its worker (spawn, Node start-up, QuickJS's WebAssembly loaded) and runs.
  const colds: number[] = [];
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const pool = new SandboxPool({ size: 1 });
    const started = performance.now();
    const outcome = await pool.run({ code: "return inputs", scope: { inputs } });
    colds.push(performance.now() - started);
    if (!outcome.ok) throw new Error(outcome.error.message);
    await pool.close();
  }

  const pool = new SandboxPool({ size: 2 });
  try {
    for (let warmup = 0; warmup < 50; warmup += 1) await pool.run({ code: "return inputs", scope: { inputs } });
    const warm: number[] = [];
    for (let run = 0; run < WARM_RUNS; run += 1) {
      const started = performance.now();
      const outcome = await pool.run({ code: "return inputs", scope: { inputs } });
      warm.push(performance.now() - started);
      if (!outcome.ok) throw new Error(outcome.error.message);
    }
    warm.sort((a, b) => a - b);

    // One job over 10,000 rows of 10 fields: filter, map, sort.
    const data = rows(ITEM_COUNT);
    const transformCode = "return inputs.rows.filter(r => r.active && r.total > 100).map(r => ({ id: r.id, name: r.name.toUpperCase(), total: r.total * 1.19, country: r.country })).sort((a, b) => b.total - a.total || a.id - b.id);";
    const transforms: number[] = [];
    for (let run = 0; run < 5; run += 1) {
      const started = performance.now();
      const outcome = await pool.run({ code: transformCode, scope: { inputs: { rows: data } } });
      transforms.push(performance.now() - started);
      if (!outcome.ok) throw new Error(outcome.error.message);
    }
    transforms.sort((a, b) => a - b);

    // The same work per item (runEach): 10,000 calls of the code in one worker call.
    const eachTimes: number[] = [];
    for (let run = 0; run < 5; run += 1) {
      const started = performance.now();
      const outcome = await pool.runEach({ code: "return item.active ? { id: item.id, total: item.total * 1.19 } : null;", scope: {}, items: data });
      eachTimes.push(performance.now() - started);
      if (!outcome.ok) throw new Error(outcome.error.message);
    }
    eachTimes.sort((a, b) => a - b);

    const ms = (value: number) => `${value.toFixed(2)} ms`;
    console.log(`cold start (first job on a new pool), median of ${colds.length}: ${ms(percentile([...colds].sort((a, b) => a - b), 0.5))}  (all: ${colds.map((value) => value.toFixed(0)).join(", ")})`);
    console.log(`warm job returning its input, ${WARM_RUNS} runs: p50 ${ms(percentile(warm, 0.5))}, p95 ${ms(percentile(warm, 0.95))}`);
    console.log(`10,000 items x 10 fields, filter + map + sort in one job, median of 5: ${ms(percentile(transforms, 0.5))}  (all: ${transforms.map((value) => value.toFixed(0)).join(", ")})`);
    console.log(`10,000 items through runEach (one call per item), median of 5: ${ms(percentile(eachTimes, 0.5))}`);
  } finally {
    await pool.close();
  }
}

/**
 * A Code step's cost in the engine, end to end: runs of "inputs → code (return inputs) → output" against the same
 * runs without the code step, on the embedded SQLite; the difference of their medians is what the step adds
 * (building its scope, the JSON copy, the pool, recording its result and events).
 */
async function engineFigure(): Promise<void> {
  const temp = await openTempDatabase();
  const engine = new RunEngine({
    store: new PrismaRunStore(temp.database),
    bus: new RunEventBus(),
    pool: () => new ToolPool([]),
    secrets: NO_SECRETS,
    workingDirectory: realpathSync(mkdtempSync(path.join(os.tmpdir(), "code-bench-"))),
    log: (message, error) => console.error(message, error),
  });
  const withCode: WorkflowDefinitionInput = {
    name: "with code",
    nodes: [
      { id: "in", kind: "input", fields: [{ name: "order", required: false }] },
      { id: "code", kind: "code", code: "return inputs;" },
      { id: "out", kind: "output", value: "{{ nodes.code.data }}" },
    ],
    edges: [
      { id: "a", source: "in", target: "code" },
      { id: "b", source: "code", target: "out" },
    ],
  };
  const without: WorkflowDefinitionInput = { name: "without", nodes: [withCode.nodes[0]!, { id: "out", kind: "output", value: "{{ inputs.order }}" }], edges: [{ id: "a", source: "in", target: "out" }] };
  const timeRuns = async (definition: WorkflowDefinitionInput): Promise<number[]> => {
    const workflow = await createWorkflow(definition, temp.database);
    const times: number[] = [];
    for (let run = 0; run < 220; run += 1) {
      const { runId } = await createRun(workflow.id, { order: "A-7" }, {}, temp.database);
      const started = performance.now();
      await engine.start(runId);
      await engine.settled(runId);
      if (run >= 20) times.push(performance.now() - started); // the first 20 warm up
    }
    return times.sort((a, b) => a - b);
  };
  try {
    const plain = await timeRuns(without);
    const coded = await timeRuns(withCode);
    const p50 = (values: number[]) => percentile(values, 0.5);
    console.log(
      `engine, a run with a Code step returning its input: p50 ${p50(coded).toFixed(2)} ms against ${p50(plain).toFixed(2)} ms without it: ` +
        `the step costs ${(p50(coded) - p50(plain)).toFixed(2)} ms p50 (p95 ${percentile(coded, 0.95).toFixed(2)} ms a run)`,
    );
  } finally {
    await engine.idle();
    await sharedSandboxPool().close();
    await temp.close();
  }
}

void main().then(engineFigure);
