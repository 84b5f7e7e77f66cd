import type { Verdict } from "@/lib/contracts/evaluation-scorer";

/** "83%": a score from 0 to 1 as people read it; "–" for none. */
export function percent(score: number | null): string {
  return score === null ? "–" : `${Math.round(score * 100)}%`;
}

/** "+12 pts", "−5 pts", "±0": a difference of two averages, in percentage points. */
export function pointsDifference(difference: number | null): string {
  if (difference === null) return "–";
  const points = Math.round(difference * 100);
  if (points === 0) return "±0 pts";
  return points > 0 ? `+${points} pts` : `−${Math.abs(points)} pts`;
}

/** One scorer's verdict on a row: passed, failed or not scored, in words and colour, with its reason beside it. */
export function VerdictBadge({ name, verdict }: { name: string; verdict: Verdict | null }) {
  if (!verdict) return <span className="text-xs text-muted">{name}: not yet</span>;
  const look = verdict.passed === true ? "bg-safe-soft text-safe" : verdict.passed === false ? "bg-caution-soft text-caution" : "bg-surface-sunken text-muted";
  const word = verdict.passed === true ? "passed" : verdict.passed === false ? "failed" : "not scored";
  return (
    <div className="space-y-0.5">
      <span className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ${look}`}>
        {name}: {word}
        {verdict.score !== null ? ` (${percent(verdict.score)})` : ""}
      </span>
      <p className="max-w-xs text-xs text-muted wrap-anywhere">{verdict.reason}</p>
      {verdict.usage ? (
        <p className="text-xs text-muted">
          judged with {verdict.usage.inputTokens.toLocaleString("en-US")} tokens in, {verdict.usage.outputTokens.toLocaleString("en-US")} out
        </p>
      ) : null}
    </div>
  );
}
