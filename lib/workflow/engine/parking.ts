/**
 * Letting go of a run without finishing it: its waiting steps stop waiting
 * here and, once nothing is in flight, it leaves this process, everything it
 * did stored for the next drive (a worker parks a run that only waits for people).
 */
import type { ActiveRun } from "./active-run";
import type { EngineContext } from "./engine-context";

/**
 * Lets go of a run without finishing it: its waiting steps stop waiting here
 * (ParkedRun, which records nothing), and once nothing of it is in flight it
 * leaves this process. What is stored stays as it is: the run awaiting
 * input, its steps waiting, their approvals pending.
 */
export function park(engine: EngineContext, run: ActiveRun, options: { abortTools?: boolean } = {}): void {
  if (run.finished || run.parked) return;
  run.parked = true;
  if (options.abortTools) run.abort.abort();
  engine.approvals.releaseRun(run.runId);
  engine.childWaits.releaseRun(run.runId);
  engine.pump(run);
}

/** With `parkWhenWaiting`: parks the run once every step in flight waits for a person (and it is not being cancelled). */
export function parkIfAllWaiting(engine: EngineContext, run: ActiveRun): void {
  if (!engine.options.parkWhenWaiting || run.finished || run.cancelled || run.parked) return;
  // >=: the plan waits before any step is in flight, and an agent step may wait on several calls at once.
  if (run.waiting === 0 || run.waiting < run.inFlight) return;
  // An agent waiting inside a turn is kept: replaying it would ask the model that turn again (its checkpoints are per finished turn).
  const agentInFlight = Object.entries(run.statuses).some(
    ([nodeId, status]) => (status === "running" || status === "waiting") && run.nodes.get(nodeId)?.kind === "agent",
  );
  if (!agentInFlight) park(engine, run);
}
