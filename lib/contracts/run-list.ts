import { z } from "zod";
import { checkCursor, ListCursorTextSchema, ListDateSchema, ListLimitSchema, ListPageSchema, ListSearchSchema, omittedWhenEmpty, SortDirectionSchema } from "./list-page";
import { RunSummarySchema } from "./run";
import { RunStatusSchema } from "./run-status";
import { RunTriggerKindSchema } from "./run-trigger";
import { UsageSummarySchema } from "./usage";

/**
 * GET /api/runs and the /runs page: runs newest first (or oldest), a page at
 * a time, narrowed by status, start, workflow, a time range and text in the
 * workflow's name. Items of a For each loop are listed under their loop's
 * step, not here, unless `trigger=for-each` asks for them.
 */

export const RUN_LIST_SORTS = ["createdAt"] as const;
const RUN_SORT_KEYS = { createdAt: "time" } as const;

export const RunListQuerySchema = z
  .object({
    limit: ListLimitSchema,
    cursor: ListCursorTextSchema,
    sort: omittedWhenEmpty(z.enum(RUN_LIST_SORTS).default("createdAt").describe("What the runs are ordered by: when they were made")),
    direction: omittedWhenEmpty(SortDirectionSchema.default("desc")),
    search: ListSearchSchema,
    status: omittedWhenEmpty(RunStatusSchema.optional()),
    trigger: omittedWhenEmpty(RunTriggerKindSchema.optional().describe("What started them; for-each lists the items of For each loops")),
    workflowId: omittedWhenEmpty(z.string().max(200).optional()),
    /** Runs made at or after this time; a day means its start (UTC). */
    from: ListDateSchema,
    /** Runs made at or before this time; a day means its whole day (UTC). */
    to: ListDateSchema,
  })
  .superRefine((query, context) => {
    checkCursor(query, RUN_SORT_KEYS, context);
    const { from, to } = listTimeRange(query);
    if (from && to && from > to) context.addIssue({ code: "custom", path: ["to"], message: "is before from; choose a later end or an earlier start" });
  });
export type RunListQuery = z.infer<typeof RunListQuerySchema>;

const DAY_MS = 24 * 60 * 60 * 1000;

/** `from` and `to` as times: a day as `from` is its first moment, as `to` its last (UTC). */
export function listTimeRange(query: { from?: string | undefined; to?: string | undefined }): { from: Date | null; to: Date | null } {
  const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
  const from = query.from === undefined ? null : new Date(isDay(query.from) ? `${query.from}T00:00:00Z` : query.from);
  const to = query.to === undefined ? null : isDay(query.to) ? new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY_MS - 1) : new Date(query.to);
  return { from, to };
}

export const RunListResponseSchema = z.object({
  runs: z.array(RunSummarySchema),
  page: ListPageSchema,
  /** The tokens and cost of every run the filter matches (all pages), at today's prices. */
  usage: UsageSummarySchema,
});
export type RunListResponse = z.infer<typeof RunListResponseSchema>;
