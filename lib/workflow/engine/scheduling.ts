/**
 * What runs next: each turn applies the pure scheduler's decision (start,
 * skip, finished) to a run, and before its first turn skips what this run
 * never runs (attached tools, other entries, loop bodies).
 */
import { RUN_TRIGGER_LABELS } from "@/lib/contracts/run-trigger";
import { startsRunsOf } from "@/nodes/definitions";
import { enclosingLoops } from "../loop-body";
import type { StepChange } from "../run-types";
import { nextSteps } from "../scheduler";
import type { ActiveRun } from "./active-run";
import type { EngineContext } from "./engine-context";
import { crash, describeFailures, finish, leave, runOutput } from "./run-end";
import { emit, now, type PendingEvent } from "./run-events";
import { executeNode } from "./step-attempt";

/** Starts what is ready, skips what cannot run, and finishes the run when nothing is left. */
export function pump(engine: EngineContext, run: ActiveRun): void {
  if (run.finished) return;
  if (run.parked || run.handingBack) {
    if (run.inFlight === 0) leave(engine, run);
    return;
  }
  if (run.cancelled) {
    if (run.inFlight === 0) void finish(engine, run, "cancelled", { error: "Cancelled." });
    return;
  }
  const decision = nextSteps(run.graph, { statuses: run.statuses, routes: run.routes, failures: run.failures });
  const changes: StepChange[] = [];
  const events: PendingEvent[] = [];
  for (const nodeId of decision.skip) {
    run.skipped(nodeId);
    changes.push({ nodeId, status: "skipped", finishedAt: now() });
    events.push({ type: "node-skipped", nodeId, payload: {} });
  }
  if (changes.length > 0) void emit(engine, run, events, undefined, changes).catch((error) => crash(engine, run, error));
  for (const nodeId of decision.start) {
    run.statuses[nodeId] = "running";
    run.inFlight += 1;
    void executeNode(engine, run, nodeId).finally(() => {
      run.inFlight -= 1;
      pump(engine, run);
    });
  }
  if (decision.finished && run.inFlight === 0) {
    // A failure the run went on from (continue, an error path) is not the run's: only those that stopped it are.
    const failedNodes = Object.entries(run.statuses)
      .filter(([id, status]) => status === "failed" && (run.failures[id] ?? "stop") === "stop")
      .map(([id]) => id);
    if (failedNodes.length > 0) {
      // What never got to run because the run stopped reads as skipped, not as still pending.
      const notRun = run.graph.nodeIds.filter((id) => (run.statuses[id] ?? "pending") === "pending");
      for (const nodeId of notRun) run.skipped(nodeId);
      const steps: StepChange[] = notRun.map((nodeId) => ({ nodeId, status: "skipped", finishedAt: now() }));
      const skippedEvents: PendingEvent[] = notRun.map((nodeId) => ({ type: "node-skipped", nodeId, payload: { reason: "the run stopped" } }));
      if (steps.length > 0) void emit(engine, run, skippedEvents, undefined, steps).catch((error) => crash(engine, run, error));
      void finish(engine, run, "failed", { error: describeFailures(run, failedNodes, engine.options.pool()) });
    } else {
      void finish(engine, run, "succeeded", { output: runOutput(run) });
    }
  }
}

/**
 * Tool nodes attached to an agent are not steps (the scheduler never sees
 * them); their records are settled at once as skipped with reason
 * "attached", so a finished run has nothing left pending.
 */
export async function settleBeforeStart(engine: EngineContext, run: ActiveRun): Promise<void> {
  const pending = (id: string) => (run.statuses[id] ?? "pending") === "pending";
  const attached = [...run.graph.attachedTo].filter(([id]) => pending(id));
  // A run starts at one entry: its trigger node, or the run inputs (and the other steps nothing leads to) when a person,
  // the CLI or MCP started it. The other entries are skipped, and with them whatever only they lead to.
  const otherEntries = run.definition.nodes.filter((node) => {
    const starts = startsRunsOf(node.kind);
    if (!starts || !pending(node.id) || node.id === run.trigger.nodeId) return false;
    return run.trigger.nodeId !== null || starts === "on-trigger";
  });
  // A loop's body is not a step of this run: each item runs it in a run of its own.
  const inLoops = [...enclosingLoops(run.definition)].filter(([id]) => pending(id) && !run.graph.attachedTo.has(id));
  if (attached.length === 0 && otherEntries.length === 0 && inLoops.length === 0) return;
  const startedBy = RUN_TRIGGER_LABELS[run.trigger.kind].toLowerCase();
  for (const [id] of attached) run.skipped(id);
  for (const node of otherEntries) run.skipped(node.id);
  for (const [id] of inLoops) run.skipped(id);
  await emit(
    engine,
    run,
    [
      ...attached.map(([nodeId, agents]): PendingEvent => ({ type: "node-skipped", nodeId, payload: { reason: "attached", agent: agents[0] ?? null } })),
      ...otherEntries.map((node): PendingEvent => ({ type: "node-skipped", nodeId: node.id, payload: { reason: `this run was started by the ${startedBy}` } })),
      ...inLoops.map(([nodeId, loopId]): PendingEvent => ({ type: "node-skipped", nodeId, payload: { reason: "in-loop", loop: loopId } })),
    ],
    undefined,
    [...attached.map(([nodeId]) => nodeId), ...otherEntries.map((node) => node.id), ...inLoops.map(([nodeId]) => nodeId)].map((nodeId) => ({ nodeId, status: "skipped", finishedAt: now() })),
  );
}
