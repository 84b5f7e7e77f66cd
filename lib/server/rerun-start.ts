import type { RerunKind, RunDetail } from "@/lib/contracts/run";
import { PERSON_TRIGGER, type RunTrigger } from "@/lib/contracts/run-trigger";
import type { RunnableVersion, RunStart } from "@/lib/persistence/run-queries";
import { stepsToCarryOver } from "@/lib/workflow/carry-over";

/**
 * How a run made from `source` starts on `version`: linked to it, at the
 * entry it started at, and for a retry with the steps it keeps. Pure; the
 * inputs are the source's.
 */
export function rerunStart(source: RunDetail, version: RunnableVersion, kind: RerunKind): Omit<RunStart, "alongWith"> {
  return {
    trigger: triggerFor(source, version),
    triggerPayload: triggerPayloadOf(source),
    source: { id: source.id, workflowId: source.workflowId, workflowName: source.workflowName, status: source.status, kind },
    ...(kind === "retry-from-failure" ? { carried: stepsToCarryOver(version.definition, source.steps, source.id) } : {}),
  };
}

/**
 * A person starts the new run, at the entry the source started at (its
 * trigger node, so the same entries are skipped and its trigger node hands on
 * the same delivery), when the version still has that node.
 */
function triggerFor(source: RunDetail, version: RunnableVersion): RunTrigger {
  const nodeId = source.trigger.nodeId;
  if (nodeId === null || !version.definition.nodes.some((node) => node.id === nodeId)) return PERSON_TRIGGER;
  return { kind: "person", nodeId };
}

/** What the source's trigger node received (a webhook's request, a schedule's slot): stored as that step's input. */
function triggerPayloadOf(source: RunDetail): unknown {
  if (source.trigger.nodeId === null) return undefined;
  return source.steps.find((step) => step.nodeId === source.trigger.nodeId)?.input ?? undefined;
}
