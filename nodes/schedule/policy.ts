import type { ScheduleNode } from "./definition";

/**
 * The schedule's decisions, free of I/O so they are tested alone: which runs
 * the slots that came due stand for (the missed-slot policy), and what a slot
 * does while the schedule's previous run is still going (the overlap policy).
 */

/** One run to start: the slot it stands for and how many missed slots it stands in for (0: a slot on time). */
export interface PlannedFiring {
  slot: Date;
  missedSlots: number;
}

/**
 * The firings for slots that came due: `missed` are slots that passed while
 * no studio process was running (a count and the newest), `onTime` the slots
 * that came while one was. skip fires only the on-time ones; run-once adds one
 * run, at the newest missed slot, standing for all the missed ones.
 */
export function planFirings(missed: { count: number; latest: Date | null }, onTime: readonly Date[], policy: ScheduleNode["missed"]): PlannedFiring[] {
  const firings: PlannedFiring[] = [];
  if (policy === "run-once" && missed.count > 0 && missed.latest) firings.push({ slot: missed.latest, missedSlots: missed.count });
  for (const slot of onTime) firings.push({ slot, missedSlots: 0 });
  return firings;
}

/** How many slots may wait behind a running one under `queue`; later ones are skipped (counted) rather than piling up without end. */
export const MAX_QUEUED_SLOTS = 10;

export type OverlapOutcome = "start" | "skip" | "queue";

/**
 * What a new slot does. `previousGoing`: a run of this schedule is running or
 * waiting for a person. `waiting`: slots already queued (under `queue` a new
 * slot waits behind them even when nothing runs this instant, so they start in order).
 */
export function overlapOutcome(policy: ScheduleNode["overlap"], previousGoing: boolean, waiting: number): OverlapOutcome {
  if (policy === "allow") return "start";
  if (policy === "skip") return previousGoing ? "skip" : "start";
  if (!previousGoing && waiting === 0) return "start";
  return waiting < MAX_QUEUED_SLOTS ? "queue" : "skip";
}
