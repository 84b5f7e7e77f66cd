import type { RunSourceKind } from "@/lib/contracts/run";
import { RUN_TRIGGER_LABELS, type RunTrigger } from "@/lib/contracts/run-trigger";

/** What a person did to make a run from another one, when that is what started it. */
const MADE_FROM: Partial<Record<RunSourceKind, string>> = {
  "retry-from-failure": "Retry from the failed step",
  "run-again": "Run again",
};

/**
 * What started a run, in a line: "Webhook: POST /hooks/github/push, delivery 72d4…".
 * A run a person made from another (`sourceKind`) says so rather than "Run button", and a test run from the
 * editor says which button made it.
 */
export function triggerDetailText(trigger: RunTrigger, sourceKind?: RunSourceKind | null): string {
  const parts: string[] = [];
  if (trigger.test && !trigger.testOf) parts.push("a test delivery, running the draft");
  if (trigger.request) parts.push(trigger.request);
  if (trigger.deliveryId) parts.push(`delivery ${trigger.deliveryId}`);
  if (trigger.evaluation) parts.push(`row ${trigger.evaluation.row}`);
  if (trigger.slot) parts.push(`slot ${trigger.slot}${trigger.missedSlots ? `, standing in for ${trigger.missedSlots} missed` : ""}`);
  const label = trigger.testOf
    ? `${trigger.testOf.mode === "step" ? "Run this step" : "Run up to here"} (a test run from the editor)`
    : ((sourceKind ? MADE_FROM[sourceKind] : undefined) ?? RUN_TRIGGER_LABELS[trigger.kind]);
  return parts.length > 0 ? `${label}: ${parts.join(", ")}` : label;
}
