import type { RunSourceKind } from "@/lib/contracts/run";

/**
 * How the run view names runs and says where a run came from. Run ids are
 * ULIDs whose first ten characters are a timestamp, alike for runs started
 * close together; the random end tells them apart.
 */

/** A run's id as a person reads it: its last six characters, e.g. `#K8R1T6`. */
export function shortRunId(runId: string): string {
  return `#${runId.slice(-6)}`;
}

/** What a kind of source run means, said of the new run: "a retry of run #K8R1T6 from its failed step". */
export function runStartedFrom(source: { runId: string; kind: RunSourceKind }): string {
  const run = `run ${shortRunId(source.runId)}`;
  switch (source.kind) {
    case "retry-from-failure":
      return `a retry of ${run} from its failed step`;
    case "run-again":
      return `${run} again, with the same inputs`;
    case "error-workflow":
      return `the error workflow of ${run}`;
    case "sub-workflow":
      return `called by a step of ${run}`;
    case "for-each":
      return `one item of a For each step of ${run}`;
  }
}

/** A run made from another, in a few words for the list on that run's page. */
export const RERUN_KIND_WORDS: Record<Exclude<RunSourceKind, "error-workflow" | "sub-workflow" | "for-each">, string> = {
  "retry-from-failure": "Retry from the failed step",
  "run-again": "Run again",
};
