import { statusWords, type ShownStatus } from "@/lib/run-view/status-words";

type Status = ShownStatus;

// The words are lib/run-view/status-words.ts's, so a badge and a card's accessible name never disagree.
const LOOK: Record<Status, { className: string; pulse?: boolean }> = {
  pending: { className: "bg-surface-sunken text-muted border-line" },
  running: { className: "bg-accent-soft text-accent border-transparent", pulse: true },
  waiting: { className: "bg-caution-soft text-caution border-transparent", pulse: true },
  retrying: { className: "bg-caution-soft text-caution border-transparent", pulse: true },
  awaiting_input: { className: "bg-caution-soft text-caution border-transparent", pulse: true },
  succeeded: { className: "bg-safe-soft text-safe border-transparent" },
  failed: { className: "bg-caution text-white border-transparent dark:text-background" },
  skipped: { className: "bg-surface-sunken text-muted border-line border-dashed" },
  attached: { className: "bg-surface-sunken text-foreground border-line" },
  cancelled: { className: "bg-surface-sunken text-muted border-line" },
};

/**
 * A run's or a node's status, in words and colour (never colour alone).
 * `words`: what a step's status says when not the run's words (stepStatusWords:
 * a Sub-workflow step waits for the run it called, not for you).
 */
export function StatusBadge({ status, words }: { status: Status; words?: string }) {
  const look = LOOK[status];
  return (
    <span className={`inline-flex items-center gap-1.5 whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-medium ${look.className}`}>
      <span aria-hidden="true" className={`size-1.5 rounded-full bg-current ${look.pulse ? "animate-pulse" : ""}`} />
      {words ?? statusWords(status)}
    </span>
  );
}
