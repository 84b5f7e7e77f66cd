import type { StepView } from "./apply-event";
import { formatDuration } from "./format-time";

/**
 * A step's attempts in words, while it has more than one: "Attempt 2 of 4"
 * while it runs, "Attempt 1 of 4 failed · next in 3 s" while it waits for
 * the next. Null for a step with one attempt in all. Pure: the caller passes
 * "now", so a ticking countdown is one timer in the view.
 */
export function describeAttempts(
  step: Pick<StepView, "status" | "attempt" | "retryAt">,
  maxAttempts: number,
  now: number,
  options: { compact?: boolean } = {},
): string | null {
  if (maxAttempts <= 1 || step.attempt < 1) return null;
  if (step.status === "retrying") {
    const due = step.retryAt ? Date.parse(step.retryAt) - now : 0;
    const wait = formatDuration(Math.ceil(due / 1000) * 1000);
    // A card has room for the next attempt and its countdown only.
    if (options.compact) return due > 500 ? `attempt ${step.attempt + 1}/${maxAttempts} in ${wait}` : `attempt ${step.attempt + 1}/${maxAttempts} starting`;
    return `Attempt ${step.attempt} of ${maxAttempts} failed · ${due > 500 ? `next in ${wait}` : "next attempt starting"}`;
  }
  if (step.status === "running" || step.status === "waiting") return `Attempt ${step.attempt} of ${maxAttempts}`;
  if (step.attempt > 1 && (step.status === "succeeded" || step.status === "failed")) return `${step.status === "succeeded" ? "Succeeded" : "Failed"} on attempt ${step.attempt} of ${maxAttempts}`;
  return null;
}
