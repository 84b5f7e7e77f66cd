/** The most runs that were under way at one moment, from their start and finish times (an evaluation's concurrency, seen from outside). */
export function mostAtOnce(runs: readonly { startedAt: string; finishedAt: string }[]): number {
  const moments = runs.flatMap((run) => [
    { at: Date.parse(run.startedAt), change: 1 },
    { at: Date.parse(run.finishedAt), change: -1 },
  ]);
  // An end before a start at the same moment: the slot was free.
  moments.sort((a, b) => a.at - b.at || a.change - b.change);
  let now = 0;
  let most = 0;
  for (const moment of moments) {
    now += moment.change;
    most = Math.max(most, now);
  }
  return most;
}
