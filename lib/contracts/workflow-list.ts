import { z } from "zod";
import { checkCursor, ListCursorTextSchema, ListLimitSchema, ListPageSchema, ListSearchSchema, omittedWhenEmpty, SortDirectionSchema } from "./list-page";
import { RunStatusSchema } from "./run-status";

/**
 * GET /api/workflows and the /workflows page: the workflows the caller may
 * see, a page at a time, most recently changed first (or by name, or by when
 * they were made), narrowed by text in their names. Workflows have no tags
 * yet, so there is no tag filter.
 */

export const WORKFLOW_LIST_SORTS = ["updatedAt", "name", "createdAt"] as const;
export const WorkflowListSortSchema = z.enum(WORKFLOW_LIST_SORTS);
export type WorkflowListSort = z.infer<typeof WorkflowListSortSchema>;
const WORKFLOW_SORT_KEYS = { updatedAt: "time", name: "text", createdAt: "time" } as const;

export const WorkflowListQuerySchema = z
  .object({
    limit: ListLimitSchema,
    cursor: ListCursorTextSchema,
    sort: omittedWhenEmpty(WorkflowListSortSchema.default("updatedAt").describe("What the workflows are ordered by: last change, name, or when made")),
    direction: omittedWhenEmpty(SortDirectionSchema.default("desc")),
    search: ListSearchSchema,
  })
  .superRefine((query, context) => checkCursor(query, WORKFLOW_SORT_KEYS, context));
export type WorkflowListQuery = z.infer<typeof WorkflowListQuerySchema>;

/** A workflow as lists show it (times as ISO strings over HTTP). */
export const WorkflowSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  latestVersion: z.number().int(),
  publishedVersion: z.number().int().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  /** The newest run's status, or null when it never ran. */
  lastRunStatus: RunStatusSchema.nullable(),
  lastRunAt: z.iso.datetime().nullable(),
});

export const WorkflowListResponseSchema = z.object({ workflows: z.array(WorkflowSummarySchema), page: ListPageSchema });
export type WorkflowListResponse = z.infer<typeof WorkflowListResponseSchema>;

export const MAX_WORKFLOW_CHOICES = 1_000;

/** GET /api/workflows/choices: names to pick from (the error workflow, a Sub-workflow step's), by name, narrowed by search. */
export const WorkflowChoicesQuerySchema = z.object({
  search: ListSearchSchema,
  limit: omittedWhenEmpty(z.coerce.number().int().min(1).max(MAX_WORKFLOW_CHOICES).default(MAX_WORKFLOW_CHOICES)),
});
export type WorkflowChoicesQuery = z.infer<typeof WorkflowChoicesQuerySchema>;

export const WorkflowChoiceSchema = z.object({
  id: z.string(),
  name: z.string(),
  latestVersion: z.number().int(),
  /** The version its triggers and callers start; null while unpublished. */
  publishedVersion: z.number().int().nullable(),
});
export type WorkflowChoice = z.infer<typeof WorkflowChoiceSchema>;

/** The choices and how many match in all: more than listed means the picker should ask for a narrower search. */
export const WorkflowChoicesResponseSchema = z.object({ workflows: z.array(WorkflowChoiceSchema), total: z.number().int().nonnegative() });
export type WorkflowChoicesResponse = z.infer<typeof WorkflowChoicesResponseSchema>;
