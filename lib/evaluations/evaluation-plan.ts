import type { EvaluationProgress, EvaluationStatus, ResultStatus, ScorerAverage } from "@/lib/contracts/evaluation";
import type { Scorer, Verdict } from "@/lib/contracts/evaluation-scorer";
import type { RunStatus } from "@/lib/contracts/run-status";

/**
 * The decisions of an evaluation, apart from its I/O (lib/server/evaluations
 * does the reading, starting and storing): which rows start next, when it has
 * finished, what a row whose run ended is worth, and each scorer's figures.
 * Pure: the same rows always give the same answer.
 */

/** How many more rows may start now: the concurrency less the rows running; none once the evaluation is not running. */
export function slotsFree(status: EvaluationStatus, concurrency: number, running: number): number {
  return status === "running" ? Math.max(0, concurrency - running) : 0;
}

/** How many rows stand where. */
export function progressOf(statuses: Iterable<ResultStatus>): EvaluationProgress {
  const progress: EvaluationProgress = { pending: 0, running: 0, scored: 0, error: 0, cancelled: 0 };
  for (const status of statuses) progress[status] += 1;
  return progress;
}

/** An evaluation still running has finished once no row waits or runs; a cancelled one stays cancelled. */
export function statusAfter(current: EvaluationStatus, progress: EvaluationProgress): EvaluationStatus {
  if (current !== "running") return current;
  return progress.pending + progress.running === 0 ? "finished" : "running";
}

/**
 * The verdicts of a row whose run did not succeed: every scorer fails it (a run that fails is worse than any output,
 * and comparing two versions must count it so), with the run's end as the reason. Null for a run that succeeded: its
 * output is scored.
 */
export function verdictsOfUnsucceededRun(scorers: readonly Scorer[], status: RunStatus, error: string | null): Verdict[] | null {
  if (status === "succeeded") return null;
  const reason = status === "cancelled" ? "the run was cancelled" : `the run failed${error ? `: ${error}` : ""}`;
  return scorers.map(() => ({ score: 0, passed: false, reason }));
}

/** Each scorer's mean score and counts over the rows' verdicts (a row not yet scored has none). */
export function averagesOf(scorers: readonly Scorer[], rows: readonly (readonly Verdict[])[]): ScorerAverage[] {
  return scorers.map((scorer, index) => {
    let sum = 0;
    let scored = 0;
    const figures = { passed: 0, failed: 0, unscored: 0 };
    for (const verdicts of rows) {
      const verdict = verdicts[index];
      if (!verdict) continue;
      if (verdict.score === null) figures.unscored += 1;
      else {
        sum += verdict.score;
        scored += 1;
      }
      if (verdict.passed === true) figures.passed += 1;
      else if (verdict.passed === false) figures.failed += 1;
    }
    return { name: scorer.name, kind: scorer.kind, average: scored === 0 ? null : sum / scored, ...figures };
  });
}
