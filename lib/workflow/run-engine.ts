import os from "node:os";
import { ApprovalWaits } from "./approvals/approval-waits";
import { ChildRunWaits } from "./child-runs";
import { systemClock } from "./clock";
import type { ApprovalDecisionInput, ApprovalRecord } from "./run-types";
import type { EngineContext } from "./engine/engine-context";
import type { CreatedRun, DriveOutcome, RunEngineOptions } from "./engine/engine-options";
import { cancelRun, driveRun, handBackAll, resumeAll, startRun } from "./engine/lifecycle";
import { pump } from "./engine/scheduling";

export {
  INTERRUPTED,
  type CreatedRun,
  type DriveOutcome,
  type FullOutputKeeper,
  type ObservedRun,
  type RunEngineOptions,
  type RunFailureReport,
  type RunObserver,
} from "./engine/engine-options";

/**
 * Executes workflow runs on the server: schedules nodes with the pure
 * scheduler, runs them through the tool framework, persists every state
 * change and event (before publishing it), waits for people through stored
 * approvals, and resumes unfinished runs after a restart without re-running
 * finished steps.
 *
 * This class is the engine's public face; its parts live in ./engine: the
 * run's lifecycle (lifecycle.ts), loading a run (run-loading.ts), what runs
 * next (scheduling.ts), a step's attempts (step-attempt.ts) and waits
 * (step-waits.ts), letting a run go (parking.ts), its end (run-end.ts), its
 * events (run-events.ts) and its plan (plan-description.ts).
 */
export class RunEngine {
  private readonly engine: EngineContext;

  constructor(options: RunEngineOptions) {
    const engine: EngineContext = {
      options,
      active: new Map(),
      approvals: new ApprovalWaits(
        options.store,
        options.decisionsElsewhereEveryMs ? { decisionsElsewhereEveryMs: options.decisionsElsewhereEveryMs } : {},
      ),
      childWaits: new ChildRunWaits(),
      workingDirectory: options.workingDirectory ?? os.homedir(),
      clock: options.clock ?? systemClock,
      pump: (run) => pump(engine, run),
    };
    this.engine = engine;
  }

  /**
   * Starts a run created by the API (status running, no steps finished).
   * `created`: the run as it was just written, so it need not be read back.
   */
  start(runId: string, created?: CreatedRun): Promise<void> {
    return startRun(this.engine, runId, created);
  }

  /**
   * Drives one stored run, as a worker does for the job that names it: a new
   * run starts, an unfinished one resumes (what `resumeAll` does for each), a
   * finished one is left alone. Resolves when the run finishes or is parked
   * (see `parkWhenWaiting`); aborting `signal` parks it at once (the job's
   * claim was lost: another worker may be taking over, so nothing more is
   * written here). `claimed`: the drive id under which the job queue already
   * claimed the run (`RunStore.claimRun`), so it is not claimed again.
   */
  drive(runId: string, options: { signal?: AbortSignal; claimed?: string } = {}): Promise<DriveOutcome> {
    return driveRun(this.engine, runId, options);
  }

  /**
   * Shutdown: every run driven here starts nothing new, lets its in-flight
   * steps finish and then leaves this process (its drive resolves
   * "handed-back"); steps waiting for a person stop waiting here at once.
   * After `graceMs`, what is still in flight is cut off (parked, tools
   * aborted): whoever drives the run next treats those steps as interrupted.
   */
  handBackAll(graceMs: number): Promise<void> {
    return handBackAll(this.engine, graceMs);
  }

  /** Another process recorded a decision on `approvalId`: wake its step if it waits here. */
  async noticeDecision(approvalId: string): Promise<void> {
    await this.engine.approvals.noticeDecision(approvalId);
  }

  /** Continues every run that was running or waiting when the process stopped. */
  resumeAll(): Promise<string[]> {
    return resumeAll(this.engine);
  }

  isActive(runId: string): boolean {
    return this.engine.active.has(runId);
  }

  /** Resolves when the run has finished (or at once if it is not active here). */
  async settled(runId: string): Promise<void> {
    await this.engine.active.get(runId)?.settled;
  }

  /** Resolves when every active run has finished. */
  async idle(): Promise<void> {
    const { active } = this.engine;
    while (active.size > 0) await Promise.all([...active.values()].map((run) => run.settled));
  }

  /**
   * Records a person's decision and wakes the step waiting for it. A second
   * decision on the same approval changes nothing (`changed: false`).
   */
  async decide(approvalId: string, decision: ApprovalDecisionInput): Promise<{ approval: ApprovalRecord; changed: boolean } | null> {
    return this.engine.approvals.decide(approvalId, decision);
  }

  /**
   * Stops a run: aborts running tools, withdraws its pending approvals (each
   * announced as decided, status cancelled, before the run-cancelled event)
   * and marks it cancelled. Returns false when the run is not running here.
   */
  cancel(runId: string, by: string | null = null): Promise<boolean> {
    return cancelRun(this.engine, runId, by);
  }
}
