import { describe, expect, it } from "vitest";
import { ScorerSchema } from "@/lib/contracts/evaluation-scorer";
import type { StudioDatabase } from "@/lib/persistence";
import { createEvaluation, getEvaluation, takeRows } from "@/lib/persistence/evaluation-store";
import { findRunnableVersion, insertRun, type RunnableVersion, type RunStart } from "@/lib/persistence/run-queries";
import { createWorkflow } from "@/lib/persistence/workflow-store";
import { defaultPool, secretsFromRecord } from "@/lib/tools";
import { RunEventBus } from "@/lib/workflow/event-bus";
import type { RunEvent } from "@/lib/workflow/run-types";
import { BOTH_PROVIDERS, openBothDatabases } from "@/tests/support/both-databases";
import type { RunDriver } from "../run-driver";
import { EvaluationRunner } from "./evaluation-runner";

/*
 * The runner against a real database of each kind, with runs created as a driver creates them but never driven: the
 * test ends them, as an engine would, and says so on the bus. What it checks is the runner's part: rows start no
 * faster than the concurrency, each is scored once its run ends, and a row taken whose run was never created (the
 * process stopped in between) gets its run once, with the id taken for it, even when two runners try at once.
 */

const databases = openBothDatabases();
const pool = defaultPool();

/** Creates runs as the studio's drivers do (the run and its steps, in the database) and records the ones it created. */
class CreatingDriver implements RunDriver {
  readonly created: string[] = [];
  constructor(private readonly database: StudioDatabase) {}
  async start(version: RunnableVersion, inputs: Record<string, unknown>, start: Omit<RunStart, "alongWith"> = {}) {
    const run = await insertRun(version, inputs, this.database, start);
    this.created.push(run.id);
    return run;
  }
  async cancel(): Promise<boolean> {
    return false;
  }
  async approvalChanged(): Promise<void> {}
}

function runnerOn(database: StudioDatabase, bus: RunEventBus, driver: RunDriver, log: string[]): EvaluationRunner {
  return new EvaluationRunner({
    database,
    runs: driver,
    bus,
    pool: () => pool,
    secrets: secretsFromRecord({}),
    scoring: () => ({
      judgeModel: () => Promise.reject(new Error("no judge here")),
      sandbox: { run: () => Promise.reject(new Error("no sandbox here")) },
    }),
    log: (message, error) => log.push(`${message} ${String(error ?? "")}`),
    // Only the wake-ups drive it here: a pass every hour never comes during a test.
    everyMs: 3_600_000,
  });
}

async function until<Value>(check: () => Promise<Value | undefined>, what: string): Promise<Value> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Ends a run as its engine would: stored, then announced. */
async function endRun(database: StudioDatabase, bus: RunEventBus, runId: string, output: string): Promise<void> {
  await database.run.update({ where: { id: runId }, data: { status: "succeeded", output: JSON.stringify(output), finishedAt: new Date() } });
  bus.publish({ runId, seq: 1, type: "run-succeeded", nodeId: null, payload: { output }, createdAt: new Date().toISOString() } as unknown as RunEvent);
}

async function evaluationOf(database: StudioDatabase, name: string, rows: number, concurrency: number): Promise<{ workflowId: string; evaluationId: string }> {
  const workflow = await createWorkflow(
    {
      name,
      nodes: [
        { id: "in", kind: "input", fields: [{ name: "who", type: "string", required: true }] },
        { id: "out", kind: "output", value: "Hello {{ inputs.who }}" },
      ],
      edges: [{ id: "e", source: "in", target: "out" }],
    },
    database,
  );
  const version = await findRunnableVersion(workflow.id, undefined, database);
  const evaluationId = await createEvaluation(
    {
      workflowId: workflow.id,
      versionId: version.versionId,
      version: version.version,
      draft: true,
      datasetId: "dataset",
      datasetName: "People",
      scorers: [ScorerSchema.parse({ kind: "exact", name: "exact" })],
      concurrency,
      rows: Array.from({ length: rows }, (_, index) => ({ position: index + 1, inputs: { who: `P${index + 1}` }, expected: `Hello P${index + 1}` })),
      startedBy: null,
    },
    database,
  );
  return { workflowId: workflow.id, evaluationId };
}

describe.each(BOTH_PROVIDERS)("the evaluation runner on %s", (provider) => {
  it("starts rows no faster than the concurrency, and scores each once its run ends", async () => {
    const { database } = databases.get(provider)!;
    const { workflowId, evaluationId } = await evaluationOf(database, `Runner ${provider}`, 5, 2);
    const bus = new RunEventBus();
    const driver = new CreatingDriver(database);
    const log: string[] = [];
    const runner = runnerOn(database, bus, driver, log);
    runner.start();
    try {
      runner.wake(evaluationId);
      await until(async () => (driver.created.length === 2 ? true : undefined), "two rows started");
      // Each end frees a slot for the next row, and no more. Row 4's run gives the wrong output.
      const runOfRow = async (position: number) => (await getEvaluation(workflowId, evaluationId, database)).results[position - 1]!.runId!;
      for (let position = 1; position <= 5; position += 1) {
        await endRun(database, bus, await runOfRow(position), position === 4 ? "Goodbye" : `Hello P${position}`);
        const expected = Math.min(5, position + 2);
        await until(async () => (driver.created.length === expected ? true : undefined), `${expected} rows started`);
      }
      const done = await until(async () => {
        const evaluation = await getEvaluation(workflowId, evaluationId, database);
        return evaluation.status === "finished" ? evaluation : undefined;
      }, "the evaluation to finish");
      expect(driver.created).toHaveLength(5);
      expect(done.results.map((result) => result.verdicts[0]?.passed)).toEqual([true, true, true, false, true]);
      expect(done.results.map((result) => result.runId).sort()).toEqual([...driver.created].sort());
      expect(done.averages[0]).toMatchObject({ average: 0.8, passed: 4, failed: 1 });
      expect(log).toEqual([]);
    } finally {
      await runner.stop();
    }
  });

  it("creates the run of a row taken before a restart with the id taken for it, once, when two runners try at once", async () => {
    const { database } = databases.get(provider)!;
    const { workflowId, evaluationId } = await evaluationOf(database, `Restart ${provider}`, 3, 2);
    // A process took two rows and stopped before it created their runs.
    const taken = await takeRows(evaluationId, database);
    expect(taken).toHaveLength(2);
    expect(await database.run.count({ where: { workflowId } })).toBe(0);

    const bus = new RunEventBus();
    const drivers = [new CreatingDriver(database), new CreatingDriver(database)];
    const log: string[] = [];
    const runners = drivers.map((driver) => runnerOn(database, bus, driver, log));
    for (const runner of runners) runner.start();
    try {
      for (const runner of runners) runner.wake(evaluationId);
      await until(async () => ((await database.run.count({ where: { id: { in: taken.map((row) => row.runId) } } })) === 2 ? true : undefined), "the taken rows' runs");
      // Both runners' passes have ended: of the two tries at each run, one created it; the third row waits for a slot.
      await until(async () => (drivers.flatMap((driver) => driver.created).length === 2 ? true : undefined), "the runs created once");
      expect(drivers.flatMap((driver) => driver.created).sort()).toEqual(taken.map((row) => row.runId).sort());
      expect(await database.run.count({ where: { workflowId } })).toBe(2);
      expect(log).toEqual([]);
    } finally {
      await Promise.all(runners.map((runner) => runner.stop()));
    }
  });
});
