/**
 * A run's events: `emit` stores them (with the step and run changes they
 * announce) through the run's writer before publishing them, and the payloads
 * several parts build (how a run's story begins, a failed node's payload).
 */
import { TEST_RUN_EXCLUDED, type NewRunEvent } from "@/lib/contracts/run-event";
import type { RunChange, RunEvent, StepChange } from "../run-types";
import type { ActiveRun } from "./active-run";
import type { EngineContext } from "./engine-context";

/** An event as the engine emits it; `emit` numbers and stores it. */
export type PendingEvent = NewRunEvent;

export function now(): string {
  return new Date().toISOString();
}

/** Persists events (with the step and run changes they announce), then publishes them. */
export async function emit(engine: EngineContext, run: ActiveRun, pending: PendingEvent[], runChange?: RunChange, steps: StepChange[] = []): Promise<void> {
  // A parked or crashed run is another drive's to record: a step still finishing here writes nothing.
  if (run.parked || run.crashed !== undefined) return;
  const createdAt = now();
  const events: RunEvent[] = pending.map((event) => ({ ...event, runId: run.runId, seq: ++run.seq, createdAt }));
  await run.writer.write({ ...(runChange ? { run: runChange } : {}), steps, events, ...(run.driver ? { driver: run.driver } : {}) });
  for (const event of events) engine.options.bus.publish(event);
  // Here, in the process that drove them, and once: a web process relaying another's events tells no observer.
  if (engine.options.observer && events.length > 0) {
    try {
      engine.options.observer.observe(run, events);
    } catch (error) {
      engine.options.log?.(`Could not observe the events of run ${run.runId}`, error);
    }
  }
}

/**
 * How a run's story begins: run-started (naming the run it repeats, if any),
 * then each step it kept from that run, so the timeline and a live view show
 * them carried over before anything runs.
 */
export function startEvents(run: ActiveRun, options: { withTrigger: boolean }): PendingEvent[] {
  const started: PendingEvent = {
    type: "run-started",
    nodeId: null,
    payload: { inputs: run.inputs, ...(options.withTrigger ? { trigger: run.trigger } : {}), ...(run.source ? { source: run.source } : {}) },
  };
  // In the workflow's order, whatever order the steps were read in.
  const carried = run.definition.nodes.flatMap(({ id: nodeId }): PendingEvent[] => {
    const from = run.carried.get(nodeId);
    const output = run.outputs[nodeId];
    return from && output ? [{ type: "node-carried-over", nodeId, payload: { fromRunId: from.fromRunId, ...(from.as ? { as: from.as } : {}), output } }] : [];
  });
  const excluded = run.definition.nodes.flatMap(({ id: nodeId }): PendingEvent[] =>
    run.excluded.has(nodeId) ? [{ type: "node-skipped", nodeId, payload: { reason: TEST_RUN_EXCLUDED } }] : [],
  );
  return [started, ...carried, ...excluded];
}

/** A failed node's node-failed payload: its error and kind, and how the run goes on past it, if it does. */
export function failedPayload(run: ActiveRun, nodeId: string, durationMs: number): Extract<PendingEvent, { type: "node-failed" }>["payload"] {
  const action = run.failures[nodeId] ?? "stop";
  return {
    error: run.errors[nodeId] ?? "The step failed.",
    durationMs,
    errorKind: run.errorKinds[nodeId] ?? "failed",
    ...(action === "stop" ? {} : { handledBy: action }),
  };
}
