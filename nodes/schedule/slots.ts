import { Cron } from "croner";

/**
 * A schedule's slots: the moments it fires. Pure and browser-safe (the
 * inspector lists the next firing times with it; the scheduler fires with it),
 * so the two never disagree. Slots are whole instants; `next(after)` is the
 * first slot strictly after `after`.
 */

/** What decides the slots; the fields of a schedule node. */
export interface ScheduleSpec {
  form: "every" | "cron";
  everyMinutes: number;
  cron: string;
  /** An IANA zone; "" for the server's (or, in a browser, the browser's) zone. */
  timezone: string;
}

export interface CompiledSchedule {
  /** The zone the slots are reckoned in. */
  zone: string;
  /** The first slot strictly after `after`, or null when none ever comes. */
  next: (after: Date) => Date | null;
}

/** Why a spec has no slots, on the field to fix. */
export interface ScheduleProblem {
  field: "cron" | "timezone" | "everyMinutes";
  message: string;
}

/** This process's zone: the server's on the server, the browser's in the editor. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Whether `zone` is a time zone this runtime knows (an IANA name such as Europe/Berlin, or UTC). */
export function isTimeZone(zone: string): boolean {
  if (zone.trim() === "") return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const CRON_FIELD_NAMES = ["second", "minute", "hour", "day of month", "month", "day of week"];

/** The checks of a cron expression croner would not make (it also takes nicknames and a year field). */
function cronShapeProblem(expression: string): string | null {
  const fields = expression.trim().split(/\s+/).filter(Boolean);
  if (fields.length === 0) return "Enter a cron expression: five fields (minute hour day-of-month month day-of-week), e.g. 0 9 * * 1-5, or six with seconds first.";
  if (fields.length !== 5 && fields.length !== 6) {
    return `A cron expression has five fields (minute hour day-of-month month day-of-week) or six with seconds first; "${expression.trim()}" has ${fields.length}.`;
  }
  return null;
}

/** Compiles a spec, or says what is wrong with it. `fallbackZone` is used when the spec names none. */
export function compileSchedule(spec: ScheduleSpec, fallbackZone: string = localTimeZone()): CompiledSchedule | ScheduleProblem {
  const zone = spec.timezone.trim() === "" ? fallbackZone : spec.timezone.trim();
  if (!isTimeZone(zone)) {
    return { field: "timezone", message: `"${spec.timezone}" is not a time zone; use an IANA name such as Europe/Berlin, America/New_York or UTC, or leave it empty for the server's.` };
  }
  if (spec.form === "every") {
    if (!Number.isInteger(spec.everyMinutes) || spec.everyMinutes < 1) {
      return { field: "everyMinutes", message: "Every how many minutes: a whole number, 1 or more." };
    }
    // Multiples of N minutes since 1970-01-01T00:00Z: whole minutes, evenly spaced, the same on every server and across DST changes.
    const period = spec.everyMinutes * 60_000;
    return { zone, next: (after) => new Date((Math.floor(after.getTime() / period) + 1) * period) };
  }
  const shape = cronShapeProblem(spec.cron);
  if (shape) return { field: "cron", message: shape };
  let cron: Cron;
  try {
    cron = new Cron(spec.cron.trim(), { timezone: zone, mode: "5-or-6-parts" });
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^CronPattern:\s*/, "") : String(error);
    return { field: "cron", message: `"${spec.cron.trim()}" is not a cron expression this studio reads (${detail}). Fields: ${cronFieldList(spec.cron)}.` };
  }
  if (cron.nextRun(new Date()) === null) return { field: "cron", message: `"${spec.cron.trim()}" never comes round (no date matches it); check the day and month fields.` };
  return { zone, next: (after) => cron.nextRun(after) };
}

function cronFieldList(expression: string): string {
  const six = expression.trim().split(/\s+/).length === 6;
  return (six ? CRON_FIELD_NAMES : CRON_FIELD_NAMES.slice(1)).join(", ");
}

export function isProblem(compiled: CompiledSchedule | ScheduleProblem): compiled is ScheduleProblem {
  return "message" in compiled;
}

/** The next `count` slots after `after`. */
export function nextSlots(schedule: CompiledSchedule, count: number, after: Date): Date[] {
  const slots: Date[] = [];
  let cursor: Date | null = after;
  while (slots.length < count && cursor) {
    cursor = schedule.next(cursor);
    if (cursor) slots.push(cursor);
  }
  return slots;
}

/** The slots in (after, until]: how many, the newest, and the oldest `keep` of them. */
export interface DueSlots {
  count: number;
  latest: Date | null;
  first: Date[];
  /** Whether counting stopped at `limit`: `count` is then a lower bound and `latest` the last counted. */
  capped: boolean;
}

/** Counting stops here: an every-second schedule down for a day would otherwise walk 86,400 slots at once. */
export const COUNT_LIMIT = 100_000;

export function dueSlots(schedule: CompiledSchedule, after: Date, until: Date, keep: number, limit = COUNT_LIMIT): DueSlots {
  const first: Date[] = [];
  let count = 0;
  let latest: Date | null = null;
  let cursor = schedule.next(after);
  while (cursor && cursor.getTime() <= until.getTime()) {
    count += 1;
    latest = cursor;
    if (first.length < keep) first.push(cursor);
    if (count >= limit) return { count, latest: latestAtOrBefore(schedule, until) ?? latest, first, capped: true };
    cursor = schedule.next(cursor);
  }
  return { count, latest, first, capped: false };
}

/** Spans to look back over for the newest slot: a slot-per-second schedule finds it in the first, a yearly one in the last. */
const LOOK_BACK_MS = [60_000, 3_600_000, 86_400_000, 32 * 86_400_000, 367 * 86_400_000, 5 * 367 * 86_400_000];

/** The newest slot at or before `until`, found without walking from long ago. */
export function latestAtOrBefore(schedule: CompiledSchedule, until: Date): Date | null {
  for (const span of LOOK_BACK_MS) {
    let latest: Date | null = null;
    let steps = 0;
    let cursor = schedule.next(new Date(until.getTime() - span));
    while (cursor && cursor.getTime() <= until.getTime() && steps < COUNT_LIMIT) {
      latest = cursor;
      steps += 1;
      cursor = schedule.next(cursor);
    }
    if (latest) return latest;
  }
  return null;
}
