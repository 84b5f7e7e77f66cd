import { z } from "zod";
import { WorkflowDefinitionSchema } from "@/lib/workflow/definition";
import { StepErrorKindSchema } from "./execution-settings";
import { ApprovalRecordSchema } from "./approval";
import { NodeStatusSchema, RunStatusSchema } from "./run-status";
import { RunTriggerSchema } from "./run-trigger";

export { FINISHED_RUN_STATUSES, NODE_STATUSES, NodeStatusSchema, RUN_STATUSES, RunStatusSchema } from "./run-status";
export type { NodeStatus, RunStatus } from "./run-status";

/** An image a step produced (a chart, a screenshot). */
export const StepImageSchema = z.object({
  /** IANA media type, e.g. `image/png`. */
  mediaType: z.string(),
  /** The image bytes, base64-encoded. */
  data: z.string(),
});

/** What a finished step produced. */
export const StepOutputSchema = z.object({
  /** The text result (what a model would read). */
  content: z.string(),
  /** Structured result (rows, records), when the tool gave one. */
  data: z.unknown().optional(),
  images: z.array(StepImageSchema).readonly().optional(),
  /** For routers: the route taken. */
  route: z.string().optional(),
});
export type StepOutput = z.infer<typeof StepOutputSchema>;

/** One node's record in a run. */
export const StepRecordSchema = z.object({
  nodeId: z.string(),
  status: NodeStatusSchema,
  input: z.unknown(),
  output: StepOutputSchema.nullable(),
  error: z.string().nullable(),
  /** What kind of failure `error` is; null while it has none. */
  errorKind: StepErrorKindSchema.nullable(),
  attempt: z.number().int().nonnegative(),
  /** While it is `retrying`: when its next attempt is due. */
  retryAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type StepRecord = z.infer<typeof StepRecordSchema>;

/** A run as stored. */
export const RunRecordSchema = z.object({
  id: z.string(),
  workflowId: z.string(),
  versionId: z.string(),
  version: z.number().int().positive(),
  status: RunStatusSchema,
  inputs: z.record(z.string(), z.unknown()),
  output: z.unknown(),
  error: z.string().nullable(),
  /** The sequence number of the run's last event. */
  lastSeq: z.number().int().nonnegative(),
  createdAt: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** What started it. */
  trigger: RunTriggerSchema,
});
export type RunRecord = z.infer<typeof RunRecordSchema>;

/** A run as the runs list shows it (GET /api/runs). */
export const RunSummarySchema = RunRecordSchema.extend({
  workflowName: z.string(),
  /** Milliseconds from start to finish, or null while running. */
  durationMs: z.number().nullable(),
  pendingApprovals: z.number().int().nonnegative(),
});
export type RunSummary = z.infer<typeof RunSummarySchema>;

/** Another run, as a run's page links to it. */
export const RunLinkSchema = z.object({
  id: z.string(),
  workflowId: z.string(),
  workflowName: z.string(),
  status: RunStatusSchema,
});
export type RunLink = z.infer<typeof RunLinkSchema>;

/** A run with its definition, steps and approvals (GET /api/runs/{id}, the run view's start). */
export const RunDetailSchema = RunSummarySchema.extend({
  definition: WorkflowDefinitionSchema,
  steps: z.array(StepRecordSchema),
  approvals: z.array(ApprovalRecordSchema),
  /** The run of the error workflow this run's failure started, if any. */
  errorWorkflowRun: RunLinkSchema.nullable(),
  /** The run this one came from: for an error workflow's run, the failed run it handles. */
  sourceRun: RunLinkSchema.nullable(),
});
export type RunDetail = z.infer<typeof RunDetailSchema>;
