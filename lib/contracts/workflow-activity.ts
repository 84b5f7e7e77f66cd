import { z } from "zod";
import { omittedWhenEmpty } from "./list-page";
import { STUDIO_CURRENCY } from "./model-prices";
import { UsageSummarySchema } from "./usage";

/**
 * GET /api/workflows/{id}/activity and the workflow's Activity page: per day
 * (UTC) over the last `days` days, today included, how many runs were made
 * and how many of them succeeded or failed, their median duration, and the
 * tokens and cost of the day's runs at today's prices. Every day is listed,
 * a day without runs as zeros. Counted in SQL (lib/persistence/workflow-activity.ts).
 *
 * Runs are those people and triggers started (not a For each loop's item
 * runs, as in the runs list); tokens and cost include the item runs too,
 * since their model calls are this workflow's spending.
 */

export const DEFAULT_ACTIVITY_DAYS = 30;

export const WorkflowActivityQuerySchema = z.object({
  days: omittedWhenEmpty(z.coerce.number().int().min(1).max(366).default(DEFAULT_ACTIVITY_DAYS).describe("How many days back, today included: 1 to 366")),
});
export type WorkflowActivityQuery = z.infer<typeof WorkflowActivityQuerySchema>;

export const ActivityDaySchema = z.object({
  /** The day, YYYY-MM-DD (UTC). */
  day: z.string(),
  /** Runs made that day, whatever became of them (running and cancelled ones too). */
  runs: z.number().int().nonnegative(),
  succeeded: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** The median time from start to finish of the day's finished runs; null when none finished. */
  medianDurationMs: z.number().nonnegative().nullable(),
  usage: UsageSummarySchema,
});
export type ActivityDay = z.infer<typeof ActivityDaySchema>;

export const WorkflowActivitySchema = z.object({
  workflowId: z.string(),
  currency: z.literal(STUDIO_CURRENCY),
  /** Oldest first, one per day, `days` of them. */
  days: z.array(ActivityDaySchema),
  /** The whole period. */
  total: z.object({
    runs: z.number().int().nonnegative(),
    succeeded: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    usage: UsageSummarySchema,
  }),
});
export type WorkflowActivity = z.infer<typeof WorkflowActivitySchema>;
