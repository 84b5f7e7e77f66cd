import type { StepOutput } from "@/lib/contracts/run";
import { RUN_ENDING_EVENT_TYPES } from "@/lib/contracts/run-event";
import { FINISHED_RUN_STATUSES, type RunStatus } from "@/lib/contracts/run-status";
import { approvalSteps } from "@/lib/evaluations/approval-steps";
import { verdictsOfUnsucceededRun } from "@/lib/evaluations/evaluation-plan";
import { scoreRow, type ScoringContext } from "@/lib/evaluations/score-row";
import { NotFoundError, type StudioDatabase } from "@/lib/persistence";
import {
  evaluationWork,
  finishIfDone,
  recordOutcome,
  recordStartError,
  runningEvaluations,
  runningRows,
  takeRows,
  type EvaluationWork,
  type TakenRow,
} from "@/lib/persistence/evaluation-store";
import { listPins } from "@/lib/persistence/pin-store";
import { isUniqueViolation } from "@/lib/persistence/prisma-errors";
import { findRunnableVersion, type RunnableVersion } from "@/lib/persistence/run-queries";
import { pricedUsage, pricesFor, usageOfRuns } from "@/lib/persistence/run-usage-queries";
import type { SecretResolver, ToolPool } from "@/lib/tools";
import type { CarriedStep } from "@/lib/workflow/carry-over";
import type { RunEventBus } from "@/lib/workflow/event-bus";
import { HttpError } from "../http-error";
import type { RunDriver } from "../run-driver";
import { checkRunStart } from "../run-start-checks";
import { toolGate } from "./tool-gate";

/**
 * Drives evaluations: starts each one's rows as its concurrency allows, and
 * scores each row once its run has ended. Runs where runs are driven (the
 * embedded studio; workers when scaled out), woken by a run's end on the event
 * bus, by a new evaluation, and every few seconds, which also picks up, after
 * a restart, whatever a previous process left: rows taken whose runs it never
 * created (created now, with the id taken with them, so never twice), runs
 * that ended while nobody listened. Passes over one evaluation never overlap
 * in a process; across processes the store's conditional updates decide.
 */

export interface EvaluationRunnerOptions {
  database: StudioDatabase;
  runs: RunDriver;
  bus: RunEventBus;
  pool: () => ToolPool;
  secrets: SecretResolver;
  /** How rows of a workflow are scored: its judges' keys are read as its steps' secrets are. */
  scoring: (workflowId: string) => ScoringContext;
  log: (message: string, error?: unknown) => void;
  /** How often every running evaluation is looked at, besides the wake-ups; default 2 s. */
  everyMs?: number;
}

const DEFAULT_EVERY_MS = 2_000;

export class EvaluationRunner {
  /** Evaluations with a pass under way here, and whether another was asked for meanwhile. */
  private readonly passing = new Map<string, { again: boolean }>();
  /** The passes under way (each evaluation's loop of passes), for stop() to wait on. */
  private readonly passes = new Set<Promise<void>>();
  /** Runs of rows this process knows of, to their evaluation: a run's end wakes it. */
  private readonly rowRuns = new Map<string, string>();
  /** Runs this process is creating now: a pass that finds no run yet must not create it too. */
  private readonly creating = new Set<string>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private unsubscribe: (() => void) | null = null;
  private stopped = false;

  constructor(private readonly options: EvaluationRunnerOptions) {}

  start(): void {
    this.unsubscribe = this.options.bus.subscribeAll((event) => {
      if (!RUN_ENDING_EVENT_TYPES.has(event.type)) return;
      const evaluationId = this.rowRuns.get(event.runId);
      if (evaluationId) this.wake(evaluationId);
    }, { endsOf: (runId) => this.rowRuns.has(runId) });
    this.timer = setInterval(() => void this.wakeAll(), this.options.everyMs ?? DEFAULT_EVERY_MS);
    this.timer.unref?.();
    void this.wakeAll();
  }

  /**
   * Starts no more passes; resolves once the passes under way have ended (so the database may be closed after it), or
   * after `graceMs`, whichever comes first: a pass may be waiting on a judge's model.
   */
  async stop(graceMs = Number.POSITIVE_INFINITY): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.unsubscribe?.();
    let late: ReturnType<typeof setTimeout> | undefined;
    const waitedLongEnough = new Promise<void>((resolve) => {
      if (Number.isFinite(graceMs)) late = setTimeout(resolve, graceMs);
    });
    await Promise.race([Promise.all(this.passes), waitedLongEnough]);
    clearTimeout(late);
  }

  /** Looks at an evaluation now (a new one, a row's end); a pass under way runs once more after it. */
  wake(evaluationId: string): void {
    if (this.stopped) return;
    const state = this.passing.get(evaluationId);
    if (state) {
      state.again = true;
      return;
    }
    const fresh = { again: false };
    this.passing.set(evaluationId, fresh);
    const passes = (async () => {
      try {
        do {
          fresh.again = false;
          await this.pass(evaluationId);
        } while (fresh.again && !this.stopped);
      } catch (error) {
        this.options.log(`could not drive evaluation ${evaluationId}; the next pass tries again`, error);
      } finally {
        this.passing.delete(evaluationId);
      }
    })();
    this.passes.add(passes);
    void passes.finally(() => this.passes.delete(passes));
  }

  private async wakeAll(): Promise<void> {
    try {
      for (const evaluation of await runningEvaluations(this.options.database)) this.wake(evaluation.id);
    } catch (error) {
      this.options.log("could not read the running evaluations", error);
    }
  }

  /** Scores the rows whose runs ended, creates the runs a restart left uncreated, starts rows into the free slots, and finishes it when all are done. */
  private async pass(evaluationId: string): Promise<void> {
    const { database } = this.options;
    const work = await evaluationWork(evaluationId, database);
    if (!work) return;
    const version = new Lazy(() => findRunnableVersion(work.workflowId, work.version, database));
    const running = await runningRows(evaluationId, database);
    for (const row of running) this.rowRuns.set(row.runId, evaluationId);
    const runs = await database.run.findMany({
      where: { id: { in: running.map((row) => row.runId) } },
      select: { id: true, status: true, output: true, error: true, startedAt: true, finishedAt: true },
    });
    const byId = new Map(runs.map((run) => [run.id, run]));
    await Promise.all(
      running.map(async (row) => {
        const run = byId.get(row.runId);
        if (!run) {
          // Taken, and its run never created (the process stopped in between): created now, with the same id.
          if (!this.creating.has(row.runId) && work.status === "running") await this.startRow(work, row, version);
          return;
        }
        if (FINISHED_RUN_STATUSES.has(run.status as RunStatus)) await this.scoreRow(work, row, { ...run, status: run.status as RunStatus });
      }),
    );
    const taken = await takeRows(evaluationId, database);
    for (const row of taken) this.rowRuns.set(row.runId, evaluationId);
    await Promise.all(taken.map((row) => this.startRow(work, row, version)));
    if (await finishIfDone(evaluationId, database)) {
      for (const [runId, owner] of this.rowRuns) if (owner === evaluationId) this.rowRuns.delete(runId);
    }
  }

  /** Creates a row's run with the id taken for it, through the checks of every run; a start the checks refuse ends the row with their reason. */
  private async startRow(work: EvaluationWork, row: TakenRow, version: Lazy<RunnableVersion>): Promise<void> {
    const { database, runs, pool, secrets } = this.options;
    this.creating.add(row.runId);
    try {
      const runnable = await version.get();
      const inputs = await checkRunStart(runnable, row.inputs, { pool: pool(), secrets, database });
      const carried = await pinnedApprovalSteps(runnable, pool(), database);
      await runs.start(runnable, inputs, {
        runId: row.runId,
        trigger: { kind: "evaluation", nodeId: null, evaluation: { id: work.id, row: row.position } },
        startedBy: work.startedBy,
        ...(carried.length > 0 ? { carried } : {}),
      });
    } catch (error) {
      // Another process created it first: it exists once, which is all that matters.
      if (isUniqueViolation(error)) return;
      // Refused by the checks of every run (the inputs, the workflow), or the version gone: the row ends with the reason.
      if ((error instanceof HttpError && error.status < 500) || NotFoundError.isInstance(error)) {
        await recordStartError(row.id, (error as Error).message, database);
        return;
      }
      // Not the row's fault (the database away): the row stays taken and the next pass creates its run.
      this.options.log(`could not start row ${row.position} of evaluation ${work.id}`, error);
    } finally {
      this.creating.delete(row.runId);
    }
  }

  /** Scores a row whose run ended, with its duration, tokens, cost and failed steps; recorded once (a conditional update). */
  private async scoreRow(
    work: EvaluationWork,
    row: TakenRow,
    run: { id: string; status: RunStatus; output: string | null; error: string | null; startedAt: Date; finishedAt: Date | null },
  ): Promise<void> {
    const { database } = this.options;
    const output = run.output === null ? null : (JSON.parse(run.output) as unknown);
    const verdicts = verdictsOfUnsucceededRun(work.scorers, run.status, run.error) ?? (await scoreRow(work.scorers, { inputs: row.inputs, expected: row.expected, output }, this.options.scoring(work.workflowId)));
    const [failedSteps, usage] = await Promise.all([database.step.count({ where: { runId: run.id, status: "failed" } }), usageOfRuns([run.id], database)]);
    const used = usage.get(run.id);
    const priced = pricedUsage(used, used ? await pricesFor([used], database) : []);
    await recordOutcome(
      row.id,
      {
        runStatus: run.status,
        output,
        error: run.error,
        verdicts,
        durationMs: run.finishedAt ? Math.max(0, run.finishedAt.getTime() - run.startedAt.getTime()) : null,
        inputTokens: priced.inputTokens,
        outputTokens: priced.outputTokens,
        costMicros: priced.costMicros,
        failedSteps,
      },
      database,
    );
    this.rowRuns.delete(run.id);
  }
}

/**
 * The steps an evaluation's run keeps from their pins instead of running: those that would ask a person
 * (lib/evaluations/approval-steps.ts) and are pinned. Every other step runs, pinned or not.
 */
async function pinnedApprovalSteps(version: RunnableVersion, pool: ToolPool, database: StudioDatabase): Promise<CarriedStep[]> {
  const pins = await listPins(version.workflowId, database);
  if (pins.length === 0) return [];
  const byNode = new Map(pins.map((pin) => [pin.nodeId, pin]));
  const { pinned } = approvalSteps(version.definition, toolGate(pool), new Set(byNode.keys()));
  return pinned.map((nodeId) => {
    const pin = byNode.get(nodeId)!;
    return { nodeId, fromRunId: pin.fromRunId, as: "pin" as const, output: pin.output as StepOutput, input: null, attempt: 0, startedAt: null, finishedAt: null };
  });
}

/** A value read once, when first needed, and shared by the pass's rows. */
class Lazy<Value> {
  private promise: Promise<Value> | null = null;
  constructor(private readonly make: () => Promise<Value>) {}
  get(): Promise<Value> {
    this.promise ??= this.make();
    return this.promise;
  }
}
