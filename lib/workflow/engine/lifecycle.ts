/**
 * A run's lifecycle here: starting it, driving it for a worker, resuming
 * runs after a restart, its plan's approval before its first step, handing
 * runs back at shutdown, and cancelling one.
 */
import { randomUUID } from "node:crypto";
import { NOBODY_TO_ASK } from "../approvals/approval-io-handler";
import { RunCancelled, ParkedRun } from "../step-errors";
import type { ActiveRun } from "./active-run";
import type { EngineContext } from "./engine-context";
import { INTERRUPTED, type CreatedRun, type DriveOutcome } from "./engine-options";
import { park } from "./parking";
import { describePlan, PLAN_KEY, PLAN_NODE } from "./plan-description";
import { crash, finish } from "./run-end";
import { emit, failedPayload, now, startEvents, type PendingEvent } from "./run-events";
import { activate, activateCreated } from "./run-loading";
import { pump, settleBeforeStart } from "./scheduling";
import { awaitApproval, waitingRun } from "./step-waits";

/**
 * RunEngine.start: a run created by the API, announced and begun (`created`:
 * as it was just written, so it need not be read back).
 */
export async function startRun(engine: EngineContext, runId: string, created?: CreatedRun): Promise<void> {
  const run = created ? await activateCreated(engine, runId, created) : await activate(engine, runId);
  if (!run) return;
  const announced = emit(engine, run, startEvents(run, { withTrigger: true }), { status: "running" });
  // The run begins without waiting for its announcement to be stored, so its first step's start joins the same
  // transaction (one commit less per run): the run's writer keeps the order and publishes nothing before it is
  // stored, and if the announcement fails, so does every write after it and the run stops as crashed. A plan is
  // the exception: its approval is stored outside the writer, so only once the run is announced.
  if (run.definition.mode === "plan") await announced;
  void begin(engine, run);
  await announced;
}

/**
 * RunEngine.drive: one stored run driven for a worker's job, under a claim (`claimed`: the job queue claimed it
 * already, as it handed the run over); `signal` parks it.
 */
export async function driveRun(engine: EngineContext, runId: string, options: { signal?: AbortSignal; claimed?: string } = {}): Promise<DriveOutcome> {
  // Still leaving this process (its last writes on their way): this job came after it let go, so once it
  // has left, the run is driven again from what is stored (a finished one is left alone below).
  const current = engine.active.get(runId);
  if (current) await current.settled;
  // Claimed before it is read: a drive that lost this run's job can no longer write over what this one reads.
  const driver = options.claimed ?? randomUUID();
  if (options.claimed === undefined) await engine.options.store.claimRun(runId, driver);
  const run = await activate(engine, runId, { continueParked: true });
  if (!run) {
    // A job for a finished run: if a step of another run called it, that run must hear of its end (a crash may have cut the first word off).
    await engine.options.childRuns?.finished(runId);
    return "finished";
  }
  run.driver = driver;
  const onAbort = () => {
    // Said on the log: a step cut off here is reported as interrupted by whoever drives the run next.
    const reason = options.signal?.reason instanceof Error ? options.signal.reason.message : String(options.signal?.reason ?? "aborted");
    engine.options.log?.(`Run ${runId} is no longer driven here (${reason}); steps in flight are stopped`);
    park(engine, run, { abortTools: true });
  };
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    await kickOff(engine, run);
    await run.settled;
    // The job fails and is retried (with backoff) until the database answers again; the retry resumes the run.
    if (run.crashed !== undefined) throw new Error(`Run ${runId} stopped on an internal error; it is driven again`, { cause: run.crashed });
    return outcomeOf(run);
  } catch (error) {
    if (!run.finished) await crash(engine, run, error);
    throw error;
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
  }
}

/** RunEngine.handBackAll: shutdown; what is still in flight after `graceMs` is cut off (parked, tools aborted). */
export async function handBackAll(engine: EngineContext, graceMs: number): Promise<void> {
  const runs = [...engine.active.values()];
  for (const run of runs) {
    if (run.finished) continue;
    run.handingBack = true;
    engine.approvals.releaseRun(run.runId);
    engine.childWaits.releaseRun(run.runId);
    // A step waiting for its next attempt is stored as such (with when it is due): it goes on wherever the run is driven next.
    for (const wait of run.retryWaits.values()) wait.abort();
    pump(engine, run);
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      for (const run of runs) park(engine, run, { abortTools: true });
      resolve();
    }, graceMs);
  });
  await Promise.race([Promise.all(runs.map((run) => run.settled)), late]);
  clearTimeout(timer);
  await Promise.all(runs.map((run) => run.settled));
}

/** Continues every run that was running or waiting when the process stopped. */
export async function resumeAll(engine: EngineContext): Promise<string[]> {
  const ids = await engine.options.store.unfinishedRunIds();
  for (const runId of ids) {
    if (engine.active.has(runId)) continue;
    const run = await activate(engine, runId);
    if (run) await kickOff(engine, run);
  }
  return ids;
}

/**
 * Announces a stored run as started (nothing happened yet) or resumed (with
 * the steps a restart interrupted), then runs it. A run that was parked
 * (waiting for a person, nothing cut off) goes on quietly: its replayed steps
 * find their decisions and say so, as they would had they waited here. A run
 * someone asked to cancel meanwhile is cancelled instead.
 */
async function kickOff(engine: EngineContext, run: ActiveRun): Promise<void> {
  if (run.seq === 0) {
    await emit(engine, run, startEvents(run, { withTrigger: false }), { status: "running" });
  } else if (run.nothingCutOff) {
    if (!run.cancelRequest) await emit(engine, run, [], { status: "running" });
  } else {
    const finishedAt = now();
    await emit(
      engine,
      run,
      [
        { type: "run-resumed", nodeId: null, payload: {} },
        ...run.interrupted.map((nodeId): PendingEvent => ({ type: "node-failed", nodeId, payload: failedPayload(run, nodeId, 0) })),
      ],
      { status: "running" },
      run.interrupted.map((nodeId) => ({ nodeId, status: "failed", error: INTERRUPTED, errorKind: "interrupted", retryAt: null, finishedAt })),
    );
  }
  if (run.cancelRequest) {
    // Nothing of it runs: its approvals are withdrawn (announced before the run-cancelled event) and it ends cancelled.
    run.cancelled = true;
    run.cancelledBy = run.cancelRequest.by;
    await engine.approvals.cancelRun(waitingRun(engine, run));
    // A step that waited for its next attempt gets none.
    const retrying = [...run.retryDue.keys()];
    run.retryDue.clear();
    const cancelled = new RunCancelled().message;
    for (const nodeId of retrying) run.failed(nodeId, cancelled, "cancelled");
    if (retrying.length > 0) {
      await emit(
        engine,
        run,
        retrying.map((nodeId): PendingEvent => ({ type: "node-failed", nodeId, payload: failedPayload(run, nodeId, 0) })),
        undefined,
        retrying.map((nodeId) => ({ nodeId, status: "failed", error: cancelled, errorKind: "cancelled", retryAt: null, finishedAt: now() })),
      );
    }
    pump(engine, run);
    return;
  }
  void begin(engine, run);
}

async function begin(engine: EngineContext, run: ActiveRun): Promise<void> {
  try {
    if (run.definition.mode === "plan") {
      const approval = await awaitApproval(engine, run, {
        runId: run.runId,
        nodeId: PLAN_NODE,
        key: PLAN_KEY,
        kind: "plan",
        tool: null,
        operation: null,
        arguments: {},
        // What runs here: a test run's kept and left-out steps are not part of its plan.
        preview: describePlan(run.definition, engine.options.pool(), (nodeId) => !run.carried.has(nodeId) && !run.excluded.has(nodeId)),
      });
      if (approval.decision !== "approve") {
        // With no terminal to ask (the CLI's unattended default), nobody rejected anything: say so, not "the person said".
        const error =
          approval.decidedBy?.name === NOBODY_TO_ASK
            ? `Nobody was there to approve the plan, so nothing ran.${approval.feedback ? ` ${approval.feedback}` : ""}`
            : `The plan was rejected.${approval.feedback ? ` The person said: ${approval.feedback}` : ""}`;
        await finish(engine, run, "failed", { error });
        return;
      }
      run.planApproved = true;
    }
    await settleBeforeStart(engine, run);
    pump(engine, run);
  } catch (error) {
    if (error instanceof RunCancelled || error instanceof ParkedRun) pump(engine, run);
    else await crash(engine, run, error);
  }
}

/** RunEngine.cancel: stops a run running here (false when it is not). */
export async function cancelRun(engine: EngineContext, runId: string, by: string | null = null): Promise<boolean> {
  const run = engine.active.get(runId);
  if (!run || run.finished) return false;
  run.cancelled = true;
  run.cancelledBy = by;
  run.abort.abort();
  engine.childWaits.cancelRun(run.runId);
  await engine.approvals.cancelRun(waitingRun(engine, run));
  pump(engine, run);
  await run.settled;
  return true;
}

function outcomeOf(run: ActiveRun): DriveOutcome {
  if (run.parked) return "parked";
  return run.handingBack ? "handed-back" : "finished";
}
