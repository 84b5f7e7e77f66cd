import { z } from "zod";
import { nodeBase } from "../node-base";
import { defineBlockKind } from "../node-kind";
import { scheduleReading } from "./reading";
import { localTimeZone } from "./slots";

/**
 * A schedule trigger: starts the workflow's published version at each slot of
 * a cron expression (five fields, or six with seconds) or of an every-N-minutes
 * form, reckoned in a time zone. Each slot fires once however many studio
 * processes run (lib/server/schedules); what happens to slots missed while the
 * studio was down, and to a slot that comes while the previous run is still
 * going, is the node's to say.
 */

export const SCHEDULE_FORMS = ["every", "cron"] as const;
/** Slots that passed while no studio process was running: fire nothing for them, or one run standing for all of them. */
export const MISSED_POLICIES = ["skip", "run-once"] as const;
/** A slot that comes while this schedule's previous run is still going: start anyway, skip it, or start it when that run ends. */
export const OVERLAP_POLICIES = ["allow", "skip", "queue"] as const;

/** The schedule's settings: the form the inspector generates from this schema; `.describe` is each field's help. */
export const ScheduleSettingsSchema = z.object({
  form: z.enum(SCHEDULE_FORMS).default("every").describe("every: every N minutes. cron: a cron expression, for times of day, weekdays, or seconds."),
  everyMinutes: z
    .number()
    .int("a whole number of minutes")
    .min(1, "at least every minute; use a cron expression with a seconds field for more often")
    .max(525_600)
    .default(15)
    .describe("With every: the minutes between runs, counted from midnight UTC (15 fires at :00, :15, :30 and :45)."),
  cron: z
    .string()
    .max(200)
    .default("0 9 * * 1-5")
    .describe("With cron: minute hour day-of-month month day-of-week, e.g. 0 9 * * 1-5 for 09:00 on weekdays; a sixth field in front counts seconds (*/10 * * * * * is every 10 seconds)."),
  timezone: z
    .string()
    .trim()
    .max(100)
    .default("")
    .describe("The IANA time zone the expression is read in, e.g. Europe/Berlin or America/New_York. Empty: the server's zone."),
  missed: z
    .enum(MISSED_POLICIES)
    .default("skip")
    .describe("Slots that passed while the studio was down: skip fires nothing for them; run-once starts one run standing for all of them."),
  overlap: z
    .enum(OVERLAP_POLICIES)
    .default("skip")
    .describe("A slot that comes while this schedule's previous run is still going: allow starts it anyway, skip starts nothing (counted), queue starts it when that run ends."),
});
export type ScheduleSettings = z.infer<typeof ScheduleSettingsSchema>;

export const ScheduleNodeSchema = z.object({
  ...nodeBase,
  kind: z.literal("schedule"),
  ...ScheduleSettingsSchema.shape,
});
export type ScheduleNode = z.infer<typeof ScheduleNodeSchema>;

/** What a schedule's step hands on to the nodes after it (its data), and what a firing stores as that step's input. */
export interface ScheduleFiringPayload {
  /** The slot the run stands for (ISO time). */
  slot: string;
  /** How many missed slots it stands for (a run-once catch-up); 0 for a slot fired on time. */
  missedSlots: number;
  /** The zone the schedule is reckoned in. */
  timezone: string;
}

/** The line under a schedule's title, on the canvas and in the run view: its reading, and the zone when one is named. */
export function scheduleSubtitle(node: Pick<ScheduleNode, "form" | "everyMinutes" | "cron" | "timezone">): string {
  return node.timezone ? `${scheduleReading(node)} (${node.timezone})` : scheduleReading(node);
}

export const scheduleKind = defineBlockKind(ScheduleNodeSchema, {
  title: "Schedule",
  icon: "clock",
  palette: { help: "Starts the published workflow on a timetable: every N minutes, or a cron expression.", group: "triggers" },
  startsRuns: "on-trigger",
  onlyComputes: true,
  // The zone of the person's browser, named: on a studio on one's own machine that is the server's too, and it shows.
  newNodeExtra: () => ({ timezone: localTimeZone() }),
  card: {
    content: (node) => ({
      subtitle: scheduleSubtitle(node),
      // A trigger starts the workflow: nothing flows into it.
      hasInput: false,
    }),
    sameContent: (before, after) =>
      before.form === after.form && before.everyMinutes === after.everyMinutes && before.cron === after.cron && before.timezone === after.timezone,
  },
});
