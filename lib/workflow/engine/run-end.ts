/**
 * A run's end: finishing it (its output or error, the error workflow, its
 * cancelled children, the run that called it), letting it leave this process
 * (parked or handed back), and stopping it on an infrastructure error.
 */
import type { ToolPool } from "@/lib/tools";
import type { ChildRunOutcome } from "../child-runs";
import { loopItemOutput } from "../loop-body";
import type { RunStatus } from "../run-types";
import type { ActiveRun } from "./active-run";
import type { EngineContext } from "./engine-context";
import { emit, now, type PendingEvent } from "./run-events";

export async function finish(engine: EngineContext, run: ActiveRun, status: RunStatus, result: { output?: unknown; error?: string }): Promise<void> {
  if (run.finished) return;
  run.finished = true;
  const error = result.error ?? null;
  const errorWorkflowRunId = status === "failed" ? await startErrorWorkflow(engine, run, error ?? "The run failed.") : null;
  // Before its end is recorded, so a restart in between records it again and cancels them then.
  if (status === "cancelled") await cancelChildren(engine, run);
  const stopping = stoppingFailure(run);
  const errorKind = status === "failed" ? (stopping ? (run.errorKinds[stopping] ?? "failed") : "failed") : status === "cancelled" ? "cancelled" : null;
  const event: PendingEvent =
    status === "succeeded"
      ? { type: "run-succeeded", nodeId: null, payload: { output: result.output ?? null } }
      : status === "cancelled"
        ? { type: "run-cancelled", nodeId: null, payload: { error, ...(run.cancelledBy ? { cancelledBy: run.cancelledBy } : {}) } }
        : { type: "run-failed", nodeId: null, payload: { error, ...(errorWorkflowRunId ? { errorWorkflowRunId } : {}) } };
  try {
    await emit(engine, run, [event], {
      status,
      output: result.output ?? null,
      error: result.error ?? null,
      errorKind,
      finishedAt: now(),
    });
    // A step of a run here that called this one goes on; one driven elsewhere hears through childRuns.
    const outcome: ChildRunOutcome =
      status === "succeeded" ? { status, output: result.output ?? null } : { status: status === "cancelled" ? "cancelled" : "failed", error: error ?? "The run failed.", errorKind };
    engine.childWaits.finished(run.runId, outcome);
    if (run.source?.kind === "sub-workflow" || run.source?.kind === "for-each") {
      // Not heard: the drive fails (crashed), so its job runs again and the next drive of the finished run says it again.
      await engine.options.childRuns?.finished(run.runId).catch((error: unknown) => {
        engine.options.log?.(`Could not tell the run that called run ${run.runId} that it finished`, error);
        run.crashed = error;
      });
    }
  } catch (error) {
    engine.options.log?.(`Could not record the end of run ${run.runId}`, error);
  } finally {
    engine.active.delete(run.runId);
    run.resolveSettled();
  }
}

/**
 * Starts the error workflow of a run that failed, before its failure is
 * recorded (so a restart in between records it again and finds the run
 * started, rather than losing it): its id, or null. A run an error workflow
 * started never starts one itself, so a failing error workflow cannot loop.
 */
async function startErrorWorkflow(engine: EngineContext, run: ActiveRun, runError: string): Promise<string | null> {
  const errorWorkflowId = run.definition.errorWorkflowId;
  // An item's failure is its loop's to handle (it stops the loop, or takes its place): the loop's run starts the error workflow, once.
  if (!errorWorkflowId || !engine.options.startErrorWorkflow || run.trigger.kind === "error-workflow" || run.loop) return null;
  // A test run from the editor fails in front of the person trying the step: nobody needs telling elsewhere.
  if (run.trigger.testOf) return null;
  const nodeId = stoppingFailure(run);
  try {
    return await engine.options.startErrorWorkflow({
      runId: run.runId,
      workflowId: run.workflowId,
      workflowName: run.definition.name,
      errorWorkflowId,
      nodeId,
      error: nodeId ? (run.errors[nodeId] ?? runError) : runError,
      errorKind: nodeId ? (run.errorKinds[nodeId] ?? null) : null,
    });
  } catch (error) {
    engine.options.log?.(`Could not start the error workflow of run ${run.runId}`, error);
    return null;
  }
}

/** A cancelled run's Sub-workflow steps' runs are cancelled with it. */
async function cancelChildren(engine: EngineContext, run: ActiveRun): Promise<void> {
  if (!engine.options.childRuns || !run.definition.nodes.some((node) => node.kind === "subworkflow" || node.kind === "foreach")) return;
  try {
    await engine.options.childRuns.cancelChildren(run.runId, run.cancelledBy);
  } catch (error) {
    engine.options.log?.(`Could not cancel the runs called by run ${run.runId}`, error);
  }
}

/**
 * A parked or handed-back run leaves this process: nothing more is written,
 * but what its last steps wrote (a success is emitted without waiting) is
 * durable before the drive says it is done, so the next drive finds those
 * steps finished rather than cut off.
 */
export function leave(engine: EngineContext, run: ActiveRun): void {
  run.finished = true;
  void run.writer.idle().then(() => {
    engine.active.delete(run.runId);
    run.resolveSettled();
  });
}

/** An infrastructure failure (the database went away): stop the run here; a restart resumes it. */
export async function crash(engine: EngineContext, run: ActiveRun, error: unknown): Promise<void> {
  engine.options.log?.(`Run ${run.runId} stopped on an internal error; it resumes at the next start`, error);
  run.crashed = error;
  run.finished = true;
  run.abort.abort();
  engine.active.delete(run.runId);
  run.resolveSettled();
}

/** The first node whose failure stopped the run (the error workflow's `nodeId`, the run's error kind); null when none did. */
function stoppingFailure(run: ActiveRun): string | null {
  return run.graph.nodeIds.find((id) => run.statuses[id] === "failed" && (run.failures[id] ?? "stop") === "stop") ?? null;
}

/** A run's output: its output node's value, or each output node's by label when there are several. */
export function runOutput(run: ActiveRun): unknown {
  // An item's value is its body's last step's: the loop collects them in order.
  if (run.loop) return loopItemOutput(run.definition, Object.fromEntries(run.definition.nodes.filter((node) => run.statuses[node.id] === "succeeded").map((node) => [node.id, run.outputs[node.id]])));
  const outputs = run.definition.nodes.filter((node) => node.kind === "output" && run.statuses[node.id] === "succeeded");
  const valueOf = (id: string) => {
    const output = run.outputs[id];
    return output?.data !== undefined ? output.data : (output?.content ?? null);
  };
  if (outputs.length === 0) return null;
  if (outputs.length === 1) return valueOf(outputs[0]!.id);
  return Object.fromEntries(outputs.map((node) => [node.label ?? node.id, valueOf(node.id)]));
}

/** "Write a File failed: …": what a person reads as the run's error, naming nodes as the canvas does. */
export function describeFailures(run: ActiveRun, failedNodes: readonly string[], pool: ToolPool): string {
  return failedNodes
    .map((nodeId) => {
      const node = run.nodes.get(nodeId);
      const name = node?.label ?? (node?.kind === "tool" ? (pool.get(node.tool)?.title ?? node.tool) : nodeId);
      const firstLine = (run.errors[nodeId] ?? "").split("\n")[0] ?? "";
      return `${name} failed${firstLine ? `: ${firstLine}` : "."}`;
    })
    .join(" ");
}
