import type { RunStatus } from "@/lib/contracts/run";

export type RunStatusFilterValue = RunStatus | "all";

/** The run list's status filter, in the order it shows them. */
export const RUN_STATUS_FILTERS: readonly { value: RunStatusFilterValue; label: string }[] = [
  { value: "all", label: "All" },
  { value: "running", label: "Running" },
  { value: "awaiting_input", label: "Waiting for you" },
  { value: "succeeded", label: "Succeeded" },
  { value: "failed", label: "Failed" },
  { value: "cancelled", label: "Cancelled" },
];
