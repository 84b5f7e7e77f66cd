import type { EvaluationSummary } from "@/lib/contracts/evaluation";

/** "12 of 20 rows done · 2 running": where an evaluation stands, with a bar. */
export function EvaluationProgress({ evaluation }: { evaluation: Pick<EvaluationSummary, "progress" | "rowCount" | "status"> }) {
  const { progress, rowCount } = evaluation;
  const done = progress.scored + progress.error + progress.cancelled;
  const words = [
    `${done} of ${rowCount} ${rowCount === 1 ? "row" : "rows"} done`,
    progress.running > 0 ? `${progress.running} running` : null,
    progress.error > 0 ? `${progress.error} could not start` : null,
    progress.cancelled > 0 ? `${progress.cancelled} cancelled` : null,
  ].filter(Boolean);
  return (
    <div className="min-w-40 space-y-1">
      <div className="h-1.5 overflow-hidden rounded-full bg-surface-sunken" role="progressbar" aria-valuemin={0} aria-valuemax={rowCount} aria-valuenow={done} aria-label="Rows done">
        <div className="h-full bg-accent" style={{ width: `${rowCount === 0 ? 0 : (done / rowCount) * 100}%` }} />
      </div>
      <p className="text-xs text-muted">{words.join(" · ")}</p>
    </div>
  );
}

/** The words for an evaluation's status. */
export const EVALUATION_STATUS_WORDS = { running: "Running", finished: "Finished", cancelled: "Cancelled" } as const;
