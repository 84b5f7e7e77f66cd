/** A For each step's progress as its card and panel say it: "7 of 10 done, 1 failed". */
export function describeLoopProgress(finished: number, failed: number, count: number): string {
  return `${finished} of ${count} done${failed > 0 ? `, ${failed} failed` : ""}`;
}
