import type { CarriedAs, StepOutput, StepRecord } from "@/lib/contracts/run";
import type { WorkflowDefinition } from "./definition";
import { buildGraph } from "./scheduler";

/** A step a retry keeps from the run it repeats: its result as that run stored it. */
export interface CarriedStep {
  nodeId: string;
  /** The run whose result is kept (a pin's: the run it was pinned from); null for values typed for a test run. */
  fromRunId: string | null;
  /** Kept from the node's pin or from typed values (a test run) rather than from `fromRunId`'s step; absent for a run's. */
  as?: CarriedAs;
  output: StepOutput;
  /** The resolved arguments it ran with there (secrets masked). */
  input: unknown;
  attempt: number;
  startedAt: string | null;
  finishedAt: string | null;
}

/**
 * The steps a retry from the failed step keeps instead of running them again:
 * each step that succeeded in the source run and whose every upstream step is
 * kept too, or was skipped there with everything upstream of it kept (a
 * branch a kept router did not take: the scheduler skips it again the same
 * way). What failed, what was cancelled or never ran, and everything
 * downstream of those runs again: a step that read a failure's error
 * (`continue`, an error path) is not kept, since the failed step may now succeed.
 * Pure: the same definition and steps give the same answer.
 *
 * @example
 *   // in → fetch (failed) → out: only `in` is kept
 *   stepsToCarryOver(definition, steps, sourceRunId).map((step) => step.nodeId) // ["in"]
 */
export function stepsToCarryOver(
  definition: Pick<WorkflowDefinition, "nodes" | "edges">,
  steps: readonly Pick<StepRecord, "nodeId" | "status" | "output" | "input" | "attempt" | "startedAt" | "finishedAt">[],
  fromRunId: string,
): CarriedStep[] {
  const graph = buildGraph(definition);
  const byNode = new Map(steps.map((step) => [step.nodeId, step]));
  // Whether a node's state in the retry is already decided by what is kept: true, false, or "deciding" while its upstream is walked.
  const settled = new Map<string, boolean | "deciding">();

  const isSettled = (nodeId: string): boolean => {
    const known = settled.get(nodeId);
    // A cycle (refused at validation) settles nothing.
    if (known === "deciding") return false;
    if (known !== undefined) return known;
    settled.set(nodeId, "deciding");
    const step = byNode.get(nodeId);
    const finishedThere = (step?.status === "succeeded" && step.output !== null) || step?.status === "skipped";
    const result = finishedThere && (graph.incoming.get(nodeId) ?? []).every((edge) => isSettled(edge.source));
    settled.set(nodeId, result);
    return result;
  };

  return graph.nodeIds.flatMap((nodeId): CarriedStep[] => {
    const step = byNode.get(nodeId);
    if (!step || step.status !== "succeeded" || step.output === null || !isSettled(nodeId)) return [];
    return [{ nodeId, fromRunId, output: step.output, input: step.input, attempt: step.attempt, startedAt: step.startedAt, finishedAt: step.finishedAt }];
  });
}
