/**
 * A step's attempts: its start (stored first when it may change the world),
 * each attempt within its time limit, retries with their delays, and its
 * final success or failure (which stops the run or takes its error path).
 */
import { retryDelayMs, type ExecutionPolicy, type StepErrorKind } from "@/lib/contracts/execution-settings";
import type { StepResult } from "@/nodes/node-kind-server";
import { serverOf } from "@/nodes/server";
import { StepDeadline } from "../clock";
import type { WorkflowNode } from "../definition";
import { ParkedRun, RunCancelled, StepFailure, StepTimedOut } from "../step-errors";
import { TemplateError } from "../templates";
import type { ActiveRun } from "./active-run";
import type { EngineContext } from "./engine-context";
import { executionContext } from "./execution-context";
import { crash } from "./run-end";
import { emit, failedPayload, now } from "./run-events";
import { startsBeforeStored } from "./side-effects";
import { storedOutput } from "./stored-output";
import { waitForRetry } from "./step-waits";

/**
 * Runs a node's attempts until one succeeds, one fails with an error not
 * worth trying again, or its retry policy has none left. Between attempts
 * the step is stored as `retrying` with when the next is due, so a restart
 * waits out the rest of the delay and counts on. The last failure is the
 * node's: it stops the run, or the run goes on past it (continue, an error path).
 */
export async function executeNode(engine: EngineContext, run: ActiveRun, nodeId: string): Promise<void> {
  const node = run.nodes.get(nodeId)!;
  const policy = run.policyOf(nodeId);
  // A step let go while it waited (parked) goes on with the same attempt, already announced. It stays stored as waiting
  // until its decision is announced (announceApproval), in the same commit that says it runs, so a kill in between leaves
  // it waiting (replayed again), never running with its effect unannounced.
  let continuing = run.storedWaiting.has(nodeId);
  let attempt = continuing ? Math.max(1, run.attempts[nodeId] ?? 1) : (run.attempts[nodeId] ?? 0) + 1;
  const due = run.retryDue.get(nodeId);
  if (due !== undefined) {
    run.retryDue.delete(nodeId);
    run.statuses[nodeId] = "retrying";
    if (!(await waitForRetry(engine, run, nodeId, due, Date.now()))) return;
    run.statuses[nodeId] = "running";
  }
  for (;; attempt += 1) {
    run.attempts[nodeId] = attempt;
    run.statuses[nodeId] = "running";
    const started = Date.now();
    try {
      if (!continuing) {
        const stored = emit(
          engine,
          run,
          [{ type: "node-started", nodeId, payload: { kind: node.kind, attempt, ...(policy.maxAttempts > 1 ? { maxAttempts: policy.maxAttempts } : {}), ...toolOf(node) } }],
          undefined,
          [{ nodeId, status: "running", attempt, startedAt: now(), finishedAt: null, error: null, errorKind: null, retryAt: null }],
        );
        // A step that may change the world starts once its start is stored: a restart then knows it may have
        // happened (at most once). One that can simply run again starts at once; the run's writer stores its start
        // before its end (usually in the same transaction), and a chain of such steps waits on no commit between them.
        if (startsBeforeStored(engine, node)) stored.catch((error: unknown) => crash(engine, run, error));
        else await stored;
      }
      continuing = false;
      const result = await runAttempt(engine, run, node, policy);
      // Bounded before anything reads it: later steps' templates, the step row and its event all see the stored
      // part, so a run resumed after a restart (which reads the row) reads what this live run reads. A whole result
      // kept beside it is kept before the step is announced, so a notice that offers it never precedes it.
      const output = await storedOutput(engine, run, nodeId, result.output);
      const input = result.input;
      run.succeeded(nodeId, output);
      // Not awaited: what this unblocks is written after it by the run's writer, usually in the same
      // transaction, and a next step's tool starts only once its own node-started (so this too) is durable.
      emit(
        engine,
        run,
        [{ type: "node-succeeded", nodeId, payload: { output, durationMs: Date.now() - started } }],
        undefined,
        [{ nodeId, status: "succeeded", input, output, finishedAt: now() }],
      ).catch((error: unknown) => crash(engine, run, error));
      return;
    } catch (error) {
      // Let go while waiting for a person: the step stays as stored (waiting); a later drive replays it.
      if (error instanceof ParkedRun || run.parked) return;
      const failure = describeFailure(error);
      if (failure.kind === "internal") engine.options.log?.(`Node ${nodeId} of run ${run.runId} crashed`, error);
      const input = error instanceof StepFailure && error.input !== undefined ? { input: error.input } : {};
      try {
        if (failure.retryable && attempt < policy.maxAttempts && !run.cancelled) {
          const delayMs = retryDelayMs(policy, attempt);
          const retryAt = engine.clock.now() + delayMs;
          run.statuses[nodeId] = "retrying";
          await emit(
            engine,
            run,
            [
              {
                type: "node-retry-scheduled",
                nodeId,
                payload: { attempt, maxAttempts: policy.maxAttempts, error: failure.message, errorKind: failure.kind, delayMs, retryAt: new Date(retryAt).toISOString() },
              },
            ],
            undefined,
            [{ nodeId, status: "retrying", error: failure.message, errorKind: failure.kind, retryAt: new Date(retryAt).toISOString(), finishedAt: now(), ...input }],
          );
          if (await waitForRetry(engine, run, nodeId, retryAt, started)) continue;
          return;
        }
        run.failed(nodeId, failure.message, failure.kind);
        await emit(engine, run, [{ type: "node-failed", nodeId, payload: failedPayload(run, nodeId, Date.now() - started) }], undefined, [
          { nodeId, status: "failed", error: failure.message, errorKind: failure.kind, retryAt: null, finishedAt: now(), ...input },
        ]);
      } catch (persistError) {
        await crash(engine, run, persistError);
      }
      return;
    }
  }
}

/**
 * One attempt, within the step's time limit when it has one: past it, the
 * attempt's tools are told to stop (their signal aborts) and the attempt
 * fails as a time-out at once, whatever the tool does with the signal. The
 * limit stands still while the step waits for a person.
 */
async function runAttempt(engine: EngineContext, run: ActiveRun, node: WorkflowNode, policy: ExecutionPolicy): Promise<StepResult> {
  if (policy.timeoutMs === null) return runNode(engine, run, node, run.abort.signal);
  const limit = policy.timeoutMs;
  const attempt = new AbortController();
  const deadline = new StepDeadline(engine.clock, limit, () => {
    const timedOut = new StepTimedOut(limit);
    attempt.abort(timedOut);
    return timedOut;
  });
  run.deadlines.set(node.id, deadline);
  try {
    const work = runNode(engine, run, node, AbortSignal.any([run.abort.signal, attempt.signal]));
    // Once the limit won, what the stopped call still answers is nobody's business.
    work.catch(() => undefined);
    return await Promise.race([work, deadline.expired]);
  } finally {
    deadline.stop();
    if (run.deadlines.get(node.id) === deadline) run.deadlines.delete(node.id);
  }
}

/** Runs one node through its kind's executor (nodes/<kind>/server.ts, by the table in nodes/server.ts). */
async function runNode(engine: EngineContext, run: ActiveRun, node: WorkflowNode, signal: AbortSignal): Promise<StepResult> {
  return serverOf(node).execute(node, executionContext(engine, run, node, signal));
}

/** A node-started event's tool and operation, for a tool node. */
function toolOf(node: WorkflowNode): { tool?: string; operation?: string | null } {
  return node.kind === "tool" ? { tool: node.tool, operation: node.operation } : {};
}

/** What a step's failure was, as its record says it, and whether its retry policy may try it again. */
function describeFailure(error: unknown): { message: string; kind: StepErrorKind; retryable: boolean } {
  if (error instanceof StepTimedOut) return { message: error.message, kind: "timeout", retryable: true };
  if (error instanceof StepFailure) return { message: error.message, kind: error.kind, retryable: error.retryable };
  if (error instanceof RunCancelled) return { message: error.message, kind: "cancelled", retryable: false };
  if (error instanceof TemplateError) return { message: error.message, kind: "template", retryable: false };
  return { message: `Internal error: ${error instanceof Error ? error.message : String(error)}`, kind: "internal", retryable: false };
}
