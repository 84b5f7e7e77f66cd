import type { StepViewStatus } from "@/lib/run-view/apply-event";
import type { RunStatus } from "@/lib/contracts/run";

type Status = RunStatus | StepViewStatus;

const LOOK: Record<Status, { label: string; className: string; pulse?: boolean }> = {
  pending: { label: "pending", className: "bg-surface-sunken text-muted border-line" },
  running: { label: "running", className: "bg-accent-soft text-accent border-transparent", pulse: true },
  waiting: { label: "waiting for you", className: "bg-caution-soft text-caution border-transparent", pulse: true },
  retrying: { label: "retrying", className: "bg-caution-soft text-caution border-transparent", pulse: true },
  awaiting_input: { label: "waiting for you", className: "bg-caution-soft text-caution border-transparent", pulse: true },
  succeeded: { label: "succeeded", className: "bg-safe-soft text-safe border-transparent" },
  failed: { label: "failed", className: "bg-caution text-white border-transparent dark:text-background" },
  skipped: { label: "skipped", className: "bg-surface-sunken text-muted border-line border-dashed" },
  attached: { label: "attached", className: "bg-surface-sunken text-foreground border-line" },
  cancelled: { label: "cancelled", className: "bg-surface-sunken text-muted border-line" },
};

/** A status in words, as the badge shows it (and a live region says it). */
export function statusWords(status: Status): string {
  return LOOK[status].label;
}

/** A run's or a node's status, in words and colour (never colour alone). */
export function StatusBadge({ status }: { status: Status }) {
  const look = LOOK[status];
  return (
    <span className={`inline-flex items-center gap-1.5 whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-medium ${look.className}`}>
      <span aria-hidden="true" className={`size-1.5 rounded-full bg-current ${look.pulse ? "animate-pulse" : ""}`} />
      {look.label}
    </span>
  );
}
