/**
 * What a step waits for: its next attempt (a retry timer), a person's
 * decision (stored approvals, announced with the state they change), and the
 * child runs it started. A step that waits counts toward parking the run.
 */
import { policyOfNode } from "@/lib/contracts/approval-policy";
import type { ApprovalAnnouncement, WaitingRun } from "../approvals/approval-waits";
import type { ChildRunOutcome } from "../child-runs";
import type { ApprovalRecord, ApprovalRequest, StepChange } from "../run-types";
import { ParkedRun, RunCancelled } from "../step-errors";
import type { ActiveRun } from "./active-run";
import type { EngineContext } from "./engine-context";
import { parkIfAllWaiting } from "./parking";
import { crash } from "./run-end";
import { emit, failedPayload, now } from "./run-events";

/**
 * Waits until a retrying step's next attempt is due: true when it may
 * start. A cancel fails the step (as cancelled); a shutdown or a lost claim
 * lets it go as stored (retrying), to be driven on elsewhere: false.
 */
export async function waitForRetry(engine: EngineContext, run: ActiveRun, nodeId: string, dueAt: number, started: number): Promise<boolean> {
  const release = new AbortController();
  run.retryWaits.set(nodeId, release);
  try {
    if (run.handingBack || run.parked) return false;
    await engine.clock.sleep(dueAt - engine.clock.now(), AbortSignal.any([release.signal, run.abort.signal])).catch(() => undefined);
    if (!run.cancelled) return !(run.handingBack || run.parked || run.crashed !== undefined);
    if (run.parked || run.crashed !== undefined) return false;
    const cancelled = new RunCancelled();
    run.failed(nodeId, cancelled.message, "cancelled");
    await emit(engine, run, [{ type: "node-failed", nodeId, payload: failedPayload(run, nodeId, Date.now() - started) }], undefined, [
      { nodeId, status: "failed", error: cancelled.message, errorKind: "cancelled", retryAt: null, finishedAt: now() },
    ]).catch((error: unknown) => crash(engine, run, error));
    return false;
  } finally {
    run.retryWaits.delete(nodeId);
  }
}

/**
 * Finds or creates the stored approval and waits for its decision. While it
 * waits, the node shows `waiting` and the run `awaiting_input`.
 */
export function awaitApproval(engine: EngineContext, run: ActiveRun, request: ApprovalRequest): Promise<ApprovalRecord> {
  return engine.approvals.await(waitingRun(engine, run), request);
}

/**
 * Waits for a child run a Sub-workflow step started. Its end may be stored
 * already (a replay); otherwise the step is stored as waiting, and counts as
 * waiting for the park rule: with workers the run is let go, and the child's
 * end drives it on (ChildRuns.finished), when the replayed step finds the
 * stored outcome here.
 */
export async function awaitChildRun(engine: EngineContext, run: ActiveRun, nodeId: string, childRunId: string): Promise<ChildRunOutcome> {
  const childRuns = engine.options.childRuns;
  if (!childRuns) throw new Error("This engine cannot run Sub-workflow steps (no childRuns option)");
  // Before the stored outcome is read: an end recorded in between still wakes it.
  const wait = engine.childWaits.register(run.runId, childRunId);
  let counted = false;
  try {
    if (run.cancelled) throw new RunCancelled();
    if (run.parked || run.handingBack) throw new ParkedRun();
    const stored = await childRuns.outcome(childRunId);
    if (stored) return stored;
    // A For each step waits for several items at once: it counts as one step waiting, from its first wait to its last.
    const waits = (run.childWaitsOf.get(nodeId) ?? 0) + 1;
    run.childWaitsOf.set(nodeId, waits);
    counted = true;
    if (waits === 1) {
      run.statuses[nodeId] = "waiting";
      run.storedWaiting.delete(nodeId);
      run.waiting += 1;
      await emit(engine, run, [], undefined, [{ nodeId, status: "waiting" }]);
    }
    parkIfAllWaiting(engine, run);
    return await wait.promise;
  } finally {
    wait.dispose();
    if (counted) {
      const left = (run.childWaitsOf.get(nodeId) ?? 1) - 1;
      run.childWaitsOf.set(nodeId, left);
      if (left === 0) {
        run.waiting = Math.max(0, run.waiting - 1);
        if (run.statuses[nodeId] === "waiting") run.statuses[nodeId] = "running";
      }
    }
  }
}

/** The run as the approval waits see it: what they announce is stored with the state it changes. */
export function waitingRun(engine: EngineContext, run: ActiveRun): WaitingRun {
  return {
    runId: run.runId,
    get cancelled() {
      return run.cancelled;
    },
    get letGo() {
      // Not a hand-back at shutdown: until its grace runs out, what the run's steps announce is still stored.
      return run.parked || run.crashed !== undefined;
    },
    announced: run.announced,
    stepOf: (nodeId) => (run.nodes.has(nodeId) ? nodeId : null),
    policyOf: (approval) => policyOfNode(approval.kind, run.nodes.get(approval.nodeId), run.definition.approvals),
    announce: (announcement) => announceApproval(engine, run, announcement),
  };
}

function announceApproval(engine: EngineContext, run: ActiveRun, announcement: ApprovalAnnouncement): Promise<void> {
  // Remembered, so a later attempt of the step that finds the same approval (nothing changed) announces it no more.
  for (const event of announcement.events) {
    if (event.type === "approval-voted") run.announced.voted.set(event.payload.approvalId, event.payload.approvals);
    else if (event.type === "approval-escalated") run.announced.escalated.add(event.payload.approvalId);
    else if (event.type === "approval-notified") run.announced.notified.add(event.payload.notification.id);
    else if (event.type === "approval-viewed") run.announced.viewed.add(event.payload.viewId);
    else (event.type === "approval-requested" ? run.announced.requested : run.announced.decided).add(event.payload.approval.id);
  }
  // A step's time limit stands still while a person decides.
  if (announcement.change === "waiting" && announcement.stepId) run.deadlines.get(announcement.stepId)?.pause();
  if (announcement.change === "resumed" && announcement.stepId) run.deadlines.get(announcement.stepId)?.resume();
  switch (announcement.change) {
    case "none": {
      const resumed: StepChange[] = announcement.events.flatMap((event) =>
        event.type === "approval-decided" && event.nodeId && run.storedWaiting.delete(event.nodeId) ? [{ nodeId: event.nodeId, status: "running" as const }] : [],
      );
      return emit(engine, run, announcement.events, undefined, resumed);
    }
    case "waiting": {
      const { stepId, approvalId, events } = announcement;
      if (stepId) run.statuses[stepId] = "waiting";
      if (stepId) run.storedWaiting.delete(stepId);
      run.waiting += 1;
      return emit(
        engine,
        run,
        [...events, { type: "run-awaiting-input", nodeId: null, payload: { approvalId } }],
        { status: "awaiting_input" },
        stepId ? [{ nodeId: stepId, status: "waiting" }] : [],
      ).then(() => parkIfAllWaiting(engine, run));
    }
    case "resumed": {
      const { stepId, othersWaiting, events } = announcement;
      run.waiting = Math.max(0, run.waiting - 1);
      if (stepId) run.statuses[stepId] = "running";
      return emit(engine, run, events, othersWaiting ? undefined : { status: "running" }, stepId ? [{ nodeId: stepId, status: "running" }] : []);
    }
  }
}
