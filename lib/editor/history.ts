/**
 * Undo and redo over immutable snapshots (the editor keeps whole workflow
 * definitions). Pure: every function returns a new history.
 *
 * Two ways to change the present:
 * - `commitChange` records one step. Consecutive commits with the same
 *   `mergeKey` within `mergeWindowMs` fold into one step, so typing a name is
 *   one undo, not one per key.
 * - `previewChange` replaces the present without recording (a node being
 *   dragged); `settleChange` then records the whole gesture as one step, from
 *   where it started. Moving a node is one step, not one per pixel.
 *
 * @example
 *   let history = createHistory(definition);
 *   history = previewChange(history, moved1);
 *   history = previewChange(history, moved2);
 *   history = settleChange(history);      // one step: definition -> moved2
 *   history = undo(history);              // back to definition
 */
export interface History<T> {
  readonly past: readonly T[];
  readonly present: T;
  readonly future: readonly T[];
  /** Where an unrecorded gesture started, or null when none is in progress. */
  readonly gestureStart: T | null;
  readonly lastMerge: { key: string; at: number } | null;
}

export const HISTORY_LIMIT = 200;
export const MERGE_WINDOW_MS = 1000;

export function createHistory<T>(present: T): History<T> {
  return { past: [], present, future: [], gestureStart: null, lastMerge: null };
}

export interface CommitOptions {
  /** Commits with the same key in a row (within the window) are one step. */
  mergeKey?: string;
  /** The time of the change, in ms; passed in so this stays pure. */
  now?: number;
  mergeWindowMs?: number;
  limit?: number;
}

export function commitChange<T>(history: History<T>, next: T, options: CommitOptions = {}): History<T> {
  if (next === history.present && history.gestureStart === null) return history;
  const settled = settleChange(history, options.limit);
  const now = options.now ?? 0;
  const window = options.mergeWindowMs ?? MERGE_WINDOW_MS;
  const merges =
    options.mergeKey !== undefined &&
    settled.lastMerge !== null &&
    settled.lastMerge.key === options.mergeKey &&
    now - settled.lastMerge.at <= window &&
    settled.future.length === 0 &&
    settled.past.length > 0;
  if (merges) {
    return { ...settled, present: next, lastMerge: { key: options.mergeKey!, at: now } };
  }
  return {
    past: trim([...settled.past, settled.present], options.limit),
    present: next,
    future: [],
    gestureStart: null,
    lastMerge: options.mergeKey === undefined ? null : { key: options.mergeKey, at: now },
  };
}

/** Replaces the present without recording a step; the gesture's start is kept for `settleChange`. */
export function previewChange<T>(history: History<T>, next: T): History<T> {
  return { ...history, present: next, gestureStart: history.gestureStart ?? history.present };
}

/** Records an unrecorded gesture as one step (nothing when none is in progress or it changed nothing). */
export function settleChange<T>(history: History<T>, limit?: number): History<T> {
  const start = history.gestureStart;
  if (start === null) return history;
  if (start === history.present) return { ...history, gestureStart: null };
  return { past: trim([...history.past, start], limit), present: history.present, future: [], gestureStart: null, lastMerge: null };
}

export function undo<T>(history: History<T>): History<T> {
  const settled = settleChange(history);
  const previous = settled.past[settled.past.length - 1];
  if (previous === undefined) return settled;
  return {
    past: settled.past.slice(0, -1),
    present: previous,
    future: [settled.present, ...settled.future],
    gestureStart: null,
    lastMerge: null,
  };
}

export function redo<T>(history: History<T>): History<T> {
  const settled = settleChange(history);
  const [next, ...rest] = settled.future;
  if (next === undefined) return settled;
  return { past: [...settled.past, settled.present], present: next, future: rest, gestureStart: null, lastMerge: null };
}

export function canUndo<T>(history: History<T>): boolean {
  return history.past.length > 0 || (history.gestureStart !== null && history.gestureStart !== history.present);
}

export function canRedo<T>(history: History<T>): boolean {
  return history.future.length > 0;
}

function trim<T>(past: T[], limit = HISTORY_LIMIT): T[] {
  return past.length > limit ? past.slice(past.length - limit) : past;
}
