// The runner's figures on the embedded default (SQLite, every run and event persisted).
// Run: npx tsx bench/runner.bench.ts [steps] [throughput] [decision]   (all three by default; targets in /work/shared/TARGETS.md; printed, never asserted)
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { Tool, ToolPool, ToolResult, NO_SECRETS, type ToolContext } from "../lib/tools";
import { WriteFileTool } from "../lib/tools/builtin/filesystem";
import { createWorkflow } from "../lib/persistence";
import { createRun } from "../lib/persistence/run-queries";
import { PrismaRunStore } from "../lib/persistence/run-store";
import { openTempDatabase } from "../lib/persistence/temp-database";
import type { WorkflowDefinitionInput } from "../lib/workflow/definition";
import { RunEventBus } from "../lib/workflow/event-bus";
import { RunEngine } from "../lib/workflow/run-engine";
import type { RunEvent } from "../lib/workflow/run-types";

/** A trivial read-only tool: the runner's cost with nothing else in the way. */
class NoopTool extends Tool<{ label?: string }> {
  readonly name = "noop";
  readonly title = "Do nothing";
  readonly description = "Returns at once.";
  readonly inputModel = z.object({ label: z.string().optional() });
  override isReadOnly(): boolean {
    return true;
  }
  override async call(args: { label?: string }): Promise<ToolResult> {
    return ToolResult.ok(`ok ${args.label ?? ""}`);
  }
}

/** write_file that notes when its call begins, so a decision's resume can be timed. */
class TimedWriteFileTool extends WriteFileTool {
  readonly callStarts = new Map<string, bigint>();
  override async call(args: Parameters<WriteFileTool["call"]>[0], ctx: ToolContext<never>): Promise<ToolResult> {
    this.callStarts.set(path.basename(args.path), process.hrtime.bigint());
    return super.call(args, ctx);
  }
}

const linear = (name: string, steps: number, mode: "bypass" | "default" = "bypass"): WorkflowDefinitionInput => ({
  name,
  mode,
  nodes: Array.from({ length: steps }, (_, index) => ({ id: `s${index}`, kind: "tool" as const, tool: "noop", arguments: { label: String(index) } })),
  edges: Array.from({ length: steps - 1 }, (_, index) => ({ id: `e${index}`, source: `s${index}`, target: `s${index + 1}` })),
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  const temp = await openTempDatabase();
  const workRoot = realpathSync(mkdtempSync(path.join(os.tmpdir(), "runner-bench-work-")));
  const writer = new TimedWriteFileTool();
  const tools = new ToolPool([new NoopTool(), writer]);
  const bus = new RunEventBus();
  const engine = new RunEngine({
    store: new PrismaRunStore(temp.database),
    bus,
    pool: () => tools,
    secrets: NO_SECRETS,
    workingDirectory: workRoot,
    log: (message, error) => console.error(message, error),
  });
  const database = temp.database;

  const chosen = process.argv.slice(2);
  const wanted = (part: string) => chosen.length === 0 || chosen.includes(part);
  try {
    console.log(`runner benchmark (SQLite at ${temp.url}, node ${process.version})`);

    // (1) Overhead per step: a linear workflow of 1,000 trivial steps.
    if (wanted("steps")) {
      const long = await createWorkflow(linear("bench 1000 steps", 1000), database);
      const perStep: number[] = [];
      for (let round = 0; round < 4; round++) {
        const { runId } = await createRun(long.id, {}, {}, database);
        const started = performance.now();
        await engine.start(runId);
        await engine.settled(runId);
        const elapsed = performance.now() - started;
        if (round > 0) perStep.push(elapsed / 1000); // the first round warms up
      }
      console.log(
        `  per step (1,000-step linear run):     median ${median(perStep).toFixed(3)} ms/step  ` +
          `[${perStep.map((value) => value.toFixed(3)).join(", ")}]   target ≤ 1 ms`,
      );
    }

    // (2) Completed runs per second: 200 small runs, 10 in flight. "End to end" creates each run as the API
    // does (createRun, through Prisma) and runs it; "engine" starts runs created beforehand.
    for (const steps of wanted("throughput") ? [1, 10] : []) {
      const workflow = await createWorkflow(linear(`bench ${steps}-step`, steps), database);
      const target = steps === 1 ? 450 : 330;
      for (const precreated of [false, true]) {
        const figures: number[] = [];
        for (let round = 0; round < 4; round++) {
          const runIds = precreated ? await Promise.all(Array.from({ length: 200 }, async () => (await createRun(workflow.id, {}, {}, database)).runId)) : [];
          let next = 0;
          const started = performance.now();
          await Promise.all(
            Array.from({ length: 10 }, async () => {
              while (next < 200) {
                const index = next++;
                const runId = precreated ? runIds[index]! : (await createRun(workflow.id, {}, {}, database)).runId;
                await engine.start(runId);
                await engine.settled(runId);
              }
            }),
          );
          if (round > 0) figures.push(200 / ((performance.now() - started) / 1000)); // the first round warms up
        }
        console.log(
          `  runs/s, ${String(steps).padStart(2)}-step workflow, ${precreated ? "engine    " : "end to end"} (200, 10 in flight): ` +
            `median ${median(figures).toFixed(0)} runs/s  [${figures.map((value) => value.toFixed(0)).join(", ")}]   target ≥ ${target}`,
        );
      }
    }

    // (3) Decision to resume: 50 runs waiting on a write approval, each decided, timed to the write's call().
    if (wanted("decision")) {
      const approvalWorkflows = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          createWorkflow(
            {
              name: `bench approval ${index}`,
              mode: "default",
              nodes: [{ id: "write", kind: "tool", tool: "write_file", settings: { root: workRoot }, arguments: { path: `file-${index}.txt`, content: "x" } }],
              edges: [],
            },
            database,
          ),
        ),
      );
      const requested = new Map<string, string>();
      const allRequested = new Promise<void>((resolve) => {
        const unsubscribe = bus.subscribeAll((event: RunEvent) => {
          if (event.type !== "approval-requested") return;
          const approval = event.payload.approval;
          requested.set(path.basename(String(approval.arguments.path)), approval.id);
          if (requested.size === 50) {
            unsubscribe();
            resolve();
          }
        });
      });
      for (const workflow of approvalWorkflows) {
        const { runId } = await createRun(workflow.id, {}, {}, database);
        await engine.start(runId);
      }
      await allRequested;
      const latencies: number[] = [];
      for (const [file, approvalId] of requested) {
        const decided = process.hrtime.bigint();
        await engine.decide(approvalId, { decision: "once", feedback: null, decidedBy: "bench" });
        // Wait for the resumed step before deciding the next, so each latency is measured alone.
        while (!writer.callStarts.has(file)) await new Promise((resolve) => setImmediate(resolve));
        latencies.push(Number(writer.callStarts.get(file)! - decided) / 1e6);
      }
      await engine.idle();
      console.log(
        `  decision → resumed step (50 approvals): p50 ${percentile(latencies, 0.5).toFixed(2)} ms, ` +
          `p95 ${percentile(latencies, 0.95).toFixed(2)} ms, max ${Math.max(...latencies).toFixed(2)} ms   target p50 ≤ 50 ms`,
      );
    }
  } finally {
    await engine.idle();
    await temp.close();
    rmSync(workRoot, { recursive: true, force: true });
  }
}

void main();
