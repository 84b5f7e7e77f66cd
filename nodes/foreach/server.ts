import type { StepErrorKind } from "@/lib/contracts/execution-settings";
import { ChildRunRefused, type ChildRunOutcome } from "@/lib/workflow/child-runs";
import { waitForChildRun } from "../child-run-wait";
import { loopBodies } from "@/lib/workflow/loop-body";
import { upstreamOf } from "@/lib/workflow/scheduler";
import { ParkedRun, RunCancelled, StepFailure } from "@/lib/workflow/step-errors";
import { nodeKindDefinitions } from "../definitions";
import { checkListTemplate, resolveList } from "../list-template";
import type { NodeExecutionContext, NodeKindServer, NodeValidationContext, StepResult } from "../node-kind-server";
import { EACH_ITEM_HANDLE, type ForEachNode } from "./definition";
import { describeLoopProgress } from "./loop-progress";

export const forEachServer: NodeKindServer<ForEachNode> = {
  validate: checkForEachNode,
  execute: runForEachNode,
};

/** Kinds that make no sense once per item: a run's start and its end. */
const NOT_IN_A_BODY = new Set(["input", "output", "webhook", "schedule"]);

/**
 * The list is one template pointing upstream; the body hangs from the
 * "each item" handle and is a region of its own: nothing in it is reached
 * from outside except through that handle, nothing in it leads outside
 * (what follows the loop hangs from "done"), and it holds no run inputs,
 * output or trigger. `{{ item }}` and `{{ index }}` are for the body alone.
 */
async function checkForEachNode(node: ForEachNode, context: NodeValidationContext): Promise<void> {
  const error = (nodeId: string, field: string, message: string) => context.problems.push({ nodeId, field, message, severity: "error" });
  checkListTemplate(node.id, node.list, "list", context);
  if (node.execution?.retry) {
    error(
      node.id,
      "execution.retry",
      "A For each step is not retried as a whole: a second attempt would run every item again, those that succeeded among them. Set retries on the steps inside its loop instead; each item's run retries them.",
    );
  }
  const body = loopBodies(context.definition).get(node.id) ?? new Set<string>();
  if (body.size === 0) {
    error(node.id, "body", "Connect the nodes to run for each item from the card's “each item” handle.");
    return;
  }
  const names = new Map(context.definition.nodes.map((each) => [each.id, each.label ?? nodeKindDefinitions[each.kind].title]));
  const loopName = node.label ?? "For each";
  for (const each of context.definition.nodes) {
    if (body.has(each.id) && NOT_IN_A_BODY.has(each.kind)) {
      error(each.id, "kind", `A ${nodeKindDefinitions[each.kind].title} node cannot be inside the loop “${loopName}”: it starts or ends a run, not an item. Move it after the loop's “done” handle.`);
    }
  }
  const reachesLoop = upstreamOf(context.graph, node.id);
  for (const edge of context.definition.edges) {
    const fromBody = body.has(edge.source);
    const intoBody = body.has(edge.target);
    if (fromBody && !intoBody) {
      error(
        edge.source,
        "edges",
        edge.target === node.id || reachesLoop.has(edge.target)
          ? `“${names.get(edge.source)}” leads back into the loop “${loopName}”: an item cannot feed the loop. Remove the connection.`
          : `“${names.get(edge.source)}” is inside the loop “${loopName}” but leads to “${names.get(edge.target)}” outside it. Connect what comes after the loop to its “done” handle, which gets every item's result.`,
      );
    }
    if (intoBody && !fromBody && !(edge.source === node.id && edge.sourceHandle === EACH_ITEM_HANDLE)) {
      error(
        edge.target,
        "edges",
        `“${names.get(edge.target)}” is inside the loop “${loopName}” but is also fed by “${names.get(edge.source)}” from outside it. Read that step's result with a template instead ({{ nodes.${edge.source}.output }}) and remove the connection.`,
      );
    }
  }
}

interface ItemSlot {
  runId: string;
  outcome: ChildRunOutcome;
}

/**
 * Runs one child run per item, at most `concurrency` at once, in the order
 * of the list (a replay of the same attempt finds the items it started:
 * items done stay done, the unfinished are waited for again, the rest are
 * started). Its output is every item's value in order; a failed item stops
 * the loop (the running ones are cancelled) or, when the node says continue,
 * leaves `{ error }` in its place.
 */
async function runForEachNode(node: ForEachNode, context: NodeExecutionContext): Promise<StepResult> {
  const childRuns = context.childRuns;
  if (!childRuns) throw new StepFailure("A For each step runs each item as a run of its own, so it runs only in the studio, not from a workflow file.", undefined, { kind: "unavailable", retryable: false });
  const scope = context.scope();
  const list = resolveList(node.list, scope);
  const count = list.length;
  const input = { list: node.list.trim(), count, concurrency: node.concurrency };
  if (count === 0) return { output: { content: "[]", data: [] }, input };

  const slots: (ItemSlot | undefined)[] = new Array(count);
  const running = new Map<number, string>();
  let next = 0;
  let stopped: { index: number; error: string; kind: StepErrorKind } | null = null;
  const progressMessage = () => {
    const finished = slots.filter((slot) => slot !== undefined);
    return describeLoopProgress(finished.length, finished.filter((slot) => slot.outcome.status !== "succeeded").length, count);
  };
  const parent = { runId: context.runId, workflowId: context.workflowId, nodeId: node.id, attempt: context.attempt, permissions: { mode: context.mode, guardrails: context.guardrails } };

  // Said before any item starts, so the step shows how many there are from the first moment (and again on a replay).
  await context.emit("node-progress", { message: progressMessage() });
  const worker = async () => {
    while (stopped === null && next < count && !context.signal.aborted) {
      const index = next++;
      let started;
      try {
        started = await childRuns.startItem({ parent, item: list[index], index, count, nodes: scope.nodes });
      } catch (error) {
        if (ChildRunRefused.isInstance(error)) throw new StepFailure(error.message, input, { kind: error.kind });
        throw error;
      }
      if (!started.announced) {
        await context.emit("child-run-started", { runId: started.runId, workflowId: started.workflowId, workflowName: started.workflowName, version: started.version, item: index, count });
      }
      running.set(index, started.runId);
      const outcome = await waitForChildRun(context, started.runId);
      running.delete(index);
      slots[index] = { runId: started.runId, outcome };
      if (outcome.status !== "succeeded" && node.onItemFailure === "stop" && stopped === null) {
        stopped = { index, error: outcome.error, kind: outcome.status === "cancelled" ? "cancelled" : (outcome.errorKind ?? "failed") };
      }
      await context.emit("node-progress", { type: "loop-item", message: progressMessage(), item: index, runId: started.runId, status: outcome.status });
    }
  };

  try {
    await Promise.all(Array.from({ length: Math.min(node.concurrency, count) }, () => worker()));
  } catch (error) {
    // Let go, cancelled or timed out: the items still running are left to what stops them (a cancel reaches them through the run).
    if (error instanceof ParkedRun || error instanceof RunCancelled) throw error;
    await cancelRunning(context, running);
    throw error;
  }
  if (stopped !== null) {
    const failure: { index: number; error: string; kind: StepErrorKind } = stopped;
    // The items still running were given up on with the loop.
    await cancelRunning(context, running);
    if (context.cancelled()) throw new RunCancelled();
    throw new StepFailure(`Item ${failure.index + 1} of ${count} failed: ${failure.error}`, input, { kind: failure.kind === "cancelled" ? "failed" : failure.kind });
  }
  const values = slots.map((slot, index) =>
    slot!.outcome.status === "succeeded" ? slot!.outcome.output : { error: { message: slot!.outcome.error, kind: slot!.outcome.errorKind ?? "failed", item: index } },
  );
  return { output: { content: JSON.stringify(values), data: values }, input };
}

async function cancelRunning(context: NodeExecutionContext, running: ReadonlyMap<number, string>): Promise<void> {
  await Promise.all(
    [...running.values()].map((runId) => context.childRuns?.cancel(runId, null).catch((error: unknown) => context.log(`Could not cancel the item run ${runId}`, error))),
  );
}
