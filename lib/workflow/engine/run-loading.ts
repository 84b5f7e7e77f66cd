/**
 * Brings a run into this process: one just created (nothing to read back), or
 * one stored (a resume or a worker's drive), deciding which of its steps a
 * restart cut off, which wait, and which retry.
 */
import { PERSON_TRIGGER } from "@/lib/contracts/run-trigger";
import { resumesInPlace } from "@/nodes/definitions";
import { ActiveRun } from "./active-run";
import type { EngineContext } from "./engine-context";
import { INTERRUPTED, type CreatedRun } from "./engine-options";
import { changesTheWorld } from "./side-effects";

/** A run that was just created: nothing has happened to it yet, so there is nothing to read back but the workflow's grants. */
export async function activateCreated(engine: EngineContext, runId: string, created: CreatedRun): Promise<ActiveRun> {
  const run = new ActiveRun(runId, created.workflowId, created.definition, created.inputs, 0, engine.options.store);
  run.trigger = created.trigger ?? PERSON_TRIGGER;
  run.version = created.version ?? null;
  run.startedAt = created.startedAt ?? null;
  run.triggerPayload = created.triggerPayload ?? null;
  run.source = created.source ?? null;
  run.setLoop(created.loop ?? null);
  for (const step of created.carried ?? []) {
    run.succeeded(step.nodeId, step.output);
    run.carried.set(step.nodeId, { fromRunId: step.fromRunId, ...(step.as ? { as: step.as } : {}) });
  }
  for (const nodeId of created.excluded ?? []) {
    run.skipped(nodeId);
    run.excluded.add(nodeId);
  }
  run.grants = await engine.options.store.listGrants(created.workflowId);
  engine.active.set(runId, run);
  return run;
}

/**
 * Loads a stored run to drive it here. `continueParked` (a worker's drive): a
 * run stored as waiting with nothing cut off continues quietly, its waiting
 * steps the same attempt; otherwise (a restart's resume) it is announced as
 * resumed and its steps start again.
 */
export async function activate(engine: EngineContext, runId: string, options: { continueParked?: boolean } = {}): Promise<ActiveRun | null> {
  const loaded = await engine.options.store.loadRun(runId);
  if (!loaded) return null;
  const { run: record, definition, steps } = loaded;
  if (record.status === "succeeded" || record.status === "failed" || record.status === "cancelled") return null;
  const run = new ActiveRun(runId, record.workflowId, definition, record.inputs, record.lastSeq, engine.options.store);
  run.trigger = record.trigger;
  run.version = record.version;
  run.startedAt = record.startedAt;
  run.triggerPayload = steps.find((step) => step.nodeId === record.trigger.nodeId)?.input ?? null;
  run.source = loaded.source ?? null;
  run.setLoop(loaded.loop ?? null);
  const cutOff = steps.filter((step) => step.status === "running" && changesTheWorld(engine, run.nodes.get(step.nodeId)));
  // A step whose approval is still pending has done nothing yet, even if the process stopped before its status
  // said "waiting" (the approval is stored first, then announced): it waits again, on the same approval.
  const awaitingDecision = cutOff.length > 0 ? await engine.options.store.nodesAwaitingDecision(runId) : new Set<string>();
  for (const step of steps) {
    run.attempts[step.nodeId] = step.attempt;
    if (step.startedAt && (step.status === "running" || step.status === "waiting")) run.stepsStartedAt.set(step.nodeId, step.startedAt);
    // A step that changes the world and was running when the process stopped may have done so: it is not run
    // again behind anyone's back (at most once), it fails saying so. Read-only steps, and steps still waiting
    // for a person (nothing done yet), simply run again.
    if (cutOff.includes(step) && !awaitingDecision.has(step.nodeId)) {
      run.failed(step.nodeId, INTERRUPTED, "interrupted");
      run.interrupted.push(step.nodeId);
      continue;
    }
    if (step.status === "succeeded" && (step.carriedFromRunId || step.carriedAs)) {
      run.carried.set(step.nodeId, { fromRunId: step.carriedFromRunId, ...(step.carriedAs ? { as: step.carriedAs } : {}) });
    }
    // A test run not yet announced: what it left out was written skipped with it.
    if (step.status === "skipped" && record.lastSeq === 0 && record.trigger.testOf) run.excluded.add(step.nodeId);
    if (step.status === "succeeded" && step.output) run.succeeded(step.nodeId, step.output);
    else if (step.status === "skipped") run.skipped(step.nodeId);
    else if (step.status === "succeeded") run.statuses[step.nodeId] = step.status;
    else if (step.status === "failed") run.failed(step.nodeId, step.error ?? "The step failed.", step.errorKind ?? "failed");
    // Between two attempts: it starts again (pending) once what is left of its wait has passed, its attempts counted on.
    else if (step.status === "retrying") run.retryDue.set(step.nodeId, step.retryAt ? Date.parse(step.retryAt) : engine.clock.now());
  }
  run.cancelRequest = loaded.cancelRequest ?? null;
  run.nothingCutOff = options.continueParked === true && !steps.some((step) => step.status === "running");
  if (run.nothingCutOff) for (const step of steps) if (step.status === "waiting") run.storedWaiting.add(step.nodeId);
  // A step cut off between storing its approval and announcing it is the same start going on (its attempt, its one
  // node-started), as a parked step is: not a second start counted as a new attempt.
  for (const step of cutOff) if (awaitingDecision.has(step.nodeId)) run.storedWaiting.add(step.nodeId);
  // A step that waits on something stored under its attempt (a Sub-workflow step's child run) picks that attempt up again.
  for (const step of steps) {
    const kind = run.nodes.get(step.nodeId)?.kind;
    if ((step.status === "running" || step.status === "waiting") && kind && resumesInPlace(kind)) run.storedWaiting.add(step.nodeId);
  }
  run.grants = loaded.grants ?? (await engine.options.store.listGrants(record.workflowId));
  // A run with events may be resuming: learn which approvals it already announced.
  if (record.lastSeq > 0) run.announced = await engine.options.store.announcedApprovals(runId);
  engine.active.set(runId, run);
  return run;
}
