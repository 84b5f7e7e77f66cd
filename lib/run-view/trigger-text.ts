import { RUN_TRIGGER_LABELS, type RunTrigger } from "@/lib/contracts/run-trigger";

/** What started a run, in a line: "Webhook: POST /hooks/github/push, delivery 72d4…". */
export function triggerDetailText(trigger: RunTrigger): string {
  const parts: string[] = [];
  if (trigger.testOf) parts.push(`a test run from the editor (${trigger.testOf.mode === "step" ? "Run this step" : "Run up to here"})`);
  else if (trigger.test) parts.push("a test delivery, running the draft");
  if (trigger.request) parts.push(trigger.request);
  if (trigger.deliveryId) parts.push(`delivery ${trigger.deliveryId}`);
  if (trigger.slot) parts.push(`slot ${trigger.slot}${trigger.missedSlots ? `, standing in for ${trigger.missedSlots} missed` : ""}`);
  return parts.length > 0 ? `${RUN_TRIGGER_LABELS[trigger.kind]}: ${parts.join(", ")}` : RUN_TRIGGER_LABELS[trigger.kind];
}
