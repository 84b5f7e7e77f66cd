import type { ChildRunOutcome } from "@/lib/workflow/child-runs";
import { ParkedRun, RunCancelled, StepTimedOut } from "@/lib/workflow/step-errors";
import type { NodeExecutionContext } from "./node-kind-server";

// How a step that started a run of its own (a Sub-workflow step, a For each item) waits for it.

/** The child's outcome; a time limit that passes first stops the child too (this attempt has given up on it). */
export async function waitForChildRun(context: NodeExecutionContext, childRunId: string): Promise<ChildRunOutcome> {
  const signal = context.signal;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    // Cancelled, past its time limit, or let go by this process (the engine then records nothing of it).
    onAbort = () => reject(context.cancelled() ? new RunCancelled() : signal.reason instanceof StepTimedOut ? signal.reason : new ParkedRun());
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  try {
    return await Promise.race([context.waitForChildRun(childRunId), aborted]);
  } catch (error) {
    if (signal.reason instanceof StepTimedOut && !context.cancelled()) {
      await context.childRuns?.cancel(childRunId, null).catch((cancelError: unknown) => context.log(`Could not cancel run ${childRunId} past its step's time limit`, cancelError));
    }
    throw error;
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}
