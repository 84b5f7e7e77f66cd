import type { RunStatus } from "@/lib/contracts/run";
import { waitingWordsOf, type NodeKind } from "@/nodes/definitions";
import type { StepViewStatus } from "./apply-event";

/** A run's or a step's status as the studio shows it. */
export type ShownStatus = RunStatus | StepViewStatus;

/** What a person needs to do nothing about a status is said plainly; only an approval of that run waits "for you". */
const STATUS_WORDS: Record<ShownStatus, string> = {
  pending: "pending",
  running: "running",
  waiting: "waiting for you",
  retrying: "retrying",
  awaiting_input: "waiting for you",
  succeeded: "succeeded",
  failed: "failed",
  skipped: "skipped",
  attached: "attached",
  cancelled: "cancelled",
};

/**
 * A run's status in words (its badge, what a live region says). `forYou: false`: the reader may not decide what it
 * waits for (no approval:decide, or the approval's policy leaves them out): it waits "for approval", not for them.
 */
export function statusWords(status: ShownStatus, options: { forYou?: boolean } = {}): string {
  if ((status === "waiting" || status === "awaiting_input") && options.forYou === false) return "waiting for approval";
  return STATUS_WORDS[status];
}

/**
 * A step's status in words, wherever it is shown (its card's badge and name,
 * its panel, the node picker, the run's counts): a step that waits for runs
 * it started (a Sub-workflow, a For each) says what it waits for, since
 * nobody is asked anything; only a step waiting for an approval says "waiting for you".
 * `inLoop`: the node is in a For each loop's body (lib/workflow/loop-body.ts); `forYou`: as for statusWords.
 */
export function stepStatusWords(status: StepViewStatus, kind: NodeKind, options: { inLoop?: boolean; forYou?: boolean } = {}): string {
  if (status === "waiting") return waitingWordsOf(kind, { forYou: options.forYou });
  // A loop's body is no step of the run holding the loop: it runs in each item's run, so it was not "skipped".
  if (status === "skipped" && options.inLoop) return "runs per item";
  return STATUS_WORDS[status];
}
