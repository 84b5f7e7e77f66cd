import { z } from "zod";
import { GuardrailsSchema, PermissionModeSchema } from "@/lib/tools/contracts";
import { WorkflowDefinitionSchema } from "@/lib/workflow/definition";
import { StepErrorKindSchema } from "./execution-settings";
import { ApprovalRecordSchema } from "./approval";
import { ModelPriceSchema } from "./model-prices";
import { UsageSummarySchema } from "./usage";
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

/** Where a test run's kept step came from, besides another run: the node's pin, or values typed for the occasion. */
export const CARRIED_AS = ["pin", "typed"] as const;
export const CarriedAsSchema = z.enum(CARRIED_AS);
export type CarriedAs = z.infer<typeof CarriedAsSchema>;

/** A part of a result stored in part: where it is (`data.rows`, `content`), how much it had and how much was stored. */
export const StoredPartSchema = z.object({
  path: z.string(),
  /** Items of a list, fields of an object, characters of a text: the true count, before the cut. */
  total: z.number().int().nonnegative(),
  /** How many of them were stored: a list's leading items, an object's leading fields, a text's first and last characters. */
  stored: z.number().int().nonnegative(),
});
export type StoredPart = z.infer<typeof StoredPartSchema>;

/**
 * The most a step's result may take, serialized as JSON (UTF-8 bytes). The run
 * page loads every step's result at once and the event stream sends each one:
 * a query of wide rows once stored 95.5 MB in one step, the server grew to
 * 3.6 GB and the page never loaded. 1 MB still holds thousands of ordinary
 * rows (a tool's text alone stops at 30,000 characters), and a run of a few
 * dozen steps stays a page a browser opens.
 */
export const MAX_STORED_RESULT_BYTES = 1_000_000;

/**
 * The most of a whole result kept beside its stored part when its workflow
 * keeps full outputs (lib/workflow/engine/stored-output.ts). Tools cap what
 * they return long before this (a file read at 32 MB, an HTTP body at 20 MB);
 * a larger result (rows of huge columns) is not kept, and its notice says so.
 */
export const MAX_KEPT_OUTPUT_BYTES = 256_000_000;

/**
 * How a result too large to store whole was cut (lib/workflow/bound-output.ts):
 * its true size and what was kept. Present only on a result that was cut; the
 * run page shows `notice`, and what later steps read is the stored part.
 */
export const OutputTruncationSchema = z.object({
  /** The whole result serialized as JSON, in bytes (UTF-8). */
  totalBytes: z.number().int().nonnegative(),
  /** The stored part serialized the same way, this description left out. */
  storedBytes: z.number().int().nonnegative(),
  /** Lists of which only the leading items were stored (`images` among them). */
  lists: z.array(StoredPartSchema),
  /** Objects of which only the leading fields were stored (thousands of fields, too many to keep a share of each). */
  fields: z.array(StoredPartSchema),
  /** Texts of which only the start and the end were stored (their middle left out). */
  texts: z.array(StoredPartSchema),
  /** Cuts not listed above, to keep this description small. */
  unlisted: z.number().int().nonnegative(),
  /** The cut in words, e.g. "The result was 10.1 MB, over the 1 MB a step stores; stored: 1.0 MB. data.rows: the first 48 of 1,000 items." */
  notice: z.string(),
  /**
   * The whole result was kept as well (its workflow keeps full outputs): GET
   * /api/runs/{runId}/steps/{nodeId}/output gives it, `totalBytes` of JSON, while the run is kept.
   */
  kept: z.boolean().optional(),
});
export type OutputTruncation = z.infer<typeof OutputTruncationSchema>;

/** What a finished step produced. */
/** One argument a person changed when approving a call ("Edit and approve"), values as shown (secrets masked). */
export const ArgumentChangeSchema = z.object({ field: z.string(), from: z.unknown().optional(), to: z.unknown().optional() });

export const StepOutputSchema = z.object({
  /** The text result (what a model would read). */
  content: z.string(),
  /** Structured result (rows, records), when the tool gave one. */
  data: z.unknown().optional(),
  images: z.array(StepImageSchema).readonly().optional(),
  /** For routers: the route taken. */
  route: z.string().optional(),
  /** Set when the result was too large to store whole: what was cut, with the true sizes. */
  truncated: OutputTruncationSchema.optional(),
  /** Set when a person edited the step's call before approving it: what the step asked and what ran instead. */
  edited: z.array(ArgumentChangeSchema).optional(),
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
  /**
   * The run this step's result was kept from: a retry from the failed step
   * copies what succeeded there instead of running it again. Null for a step
   * that ran (or will run) in this run.
   */
  carriedFromRunId: z.string().nullable(),
  /**
   * A test run kept this step's result from the node's pin (`pin`; the run it
   * was pinned from, if any, is `carriedFromRunId`) or from values typed for the
   * occasion (`typed`) instead of running it. Null otherwise.
   */
  carriedAs: CarriedAsSchema.nullable(),
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
  /** How many approvals it asked for in all, decided or not. */
  totalApprovals: z.number().int().nonnegative(),
  /** How many of them still wait for a person. */
  pendingApprovals: z.number().int().nonnegative(),
  /**
   * The person who started it (Run, Run again, Retry, a test run), named as they were then; null when a
   * trigger did (a webhook, a schedule, an MCP client, another run) or it was started before people existed.
   */
  startedBy: z.object({ personId: z.string(), name: z.string() }).nullable(),
  /** The tokens its agent steps used, and what they cost at today's prices (lib/contracts/usage.ts). */
  usage: UsageSummarySchema,
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

/**
 * How a run came from another: an error workflow's run handles a failed run;
 * a retry from the failure repeats a failed or cancelled run on its version,
 * keeping what succeeded; a run again repeats a finished run from the start
 * with the same inputs; a sub-workflow's run was called by a step of its
 * parent run, which waits for it.
 */
export const RUN_SOURCE_KINDS = ["error-workflow", "retry-from-failure", "run-again", "sub-workflow", "for-each"] as const;
export const RunSourceKindSchema = z.enum(RUN_SOURCE_KINDS);
export type RunSourceKind = z.infer<typeof RunSourceKindSchema>;

/** The kinds of run a step of another run starts and waits for: a Sub-workflow step's, a For each item's. */
export const CHILD_RUN_KINDS = ["sub-workflow", "for-each"] as const satisfies readonly RunSourceKind[];

/** The kinds of run a person makes from a finished one (the run page's buttons, POST /api/runs/{id}/retry and /rerun). */
export const RERUN_KINDS = ["retry-from-failure", "run-again"] as const satisfies readonly RunSourceKind[];
export type RerunKind = (typeof RERUN_KINDS)[number];

/**
 * The run a run came from, and how. For a sub-workflow's run, `nodeId` is the
 * parent's step that called it and `nodeLabel` what that step is called.
 */
export const RunSourceLinkSchema = RunLinkSchema.extend({
  kind: RunSourceKindSchema,
  nodeId: z.string().optional(),
  nodeLabel: z.string().optional(),
});
export type RunSourceLink = z.infer<typeof RunSourceLinkSchema>;

/** A run made from this one (a retry or a run again), as its page lists them. */
export const RerunLinkSchema = z.object({
  id: z.string(),
  kind: z.enum(RERUN_KINDS),
  status: RunStatusSchema,
  version: z.number().int().positive(),
  createdAt: z.string(),
});
export type RerunLink = z.infer<typeof RerunLinkSchema>;

/**
 * A run a step of this run started, as the step's panel links to it: a
 * Sub-workflow step's (one per attempt), or a For each step's (one per item
 * of an attempt, `item` its index from 0).
 */
export const ChildRunLinkSchema = RunLinkSchema.extend({
  /** The step that called it, and which of its attempts. */
  nodeId: z.string(),
  attempt: z.number().int().positive(),
  version: z.number().int().positive(),
  kind: z.enum(["sub-workflow", "for-each"]),
  item: z.number().int().nonnegative(),
});

/**
 * What a For each item's run is: the loop node whose body it runs, the item
 * and its index, how many items there are, and what the loop's run had
 * computed before the loop (its templates read `{{ nodes.… }}` from there).
 */
export const RunLoopSchema = z.object({
  nodeId: z.string(),
  index: z.number().int().nonnegative(),
  count: z.number().int().positive(),
  item: z.unknown(),
  nodes: z.record(z.string(), z.object({ output: z.unknown(), data: z.unknown().optional() })),
});
export type RunLoop = z.infer<typeof RunLoopSchema>;
export type ChildRunLink = z.infer<typeof ChildRunLinkSchema>;

/**
 * The mode and guardrails a run called by another run runs under, when its
 * caller's are stricter than those its version was saved with (the stricter
 * of both: lib/tools/permissions/stricter.ts). Stored on the run when it is
 * started, so every drive of it (a restart, another worker) runs it the same.
 */
export const RunPermissionsSchema = z.object({
  mode: PermissionModeSchema,
  guardrails: GuardrailsSchema,
});
export type RunPermissions = z.infer<typeof RunPermissionsSchema>;

/** A run with its definition, steps and approvals (GET /api/runs/{id}, the run view's start). */
export const RunDetailSchema = RunSummarySchema.extend({
  definition: WorkflowDefinitionSchema,
  steps: z.array(StepRecordSchema),
  approvals: z.array(ApprovalRecordSchema),
  /** The run of the error workflow this run's failure started, if any. */
  errorWorkflowRun: RunLinkSchema.nullable(),
  /** The run this one came from, and how: the failed run an error workflow's run handles, the run a retry or a run again repeats. */
  sourceRun: RunSourceLinkSchema.nullable(),
  /** The runs its Sub-workflow steps called, in the order they started. */
  childRuns: z.array(ChildRunLinkSchema),
  /** What it runs under instead of its version's mode and guardrails (its caller's are stricter); null: its own. `definition` holds its version's own. */
  permissions: RunPermissionsSchema.nullable(),
  /** For a For each item's run: which item of which loop (its definition is that loop's body alone). */
  loop: RunLoopSchema.omit({ nodes: true }).nullable(),
  /** The retries and runs again made from this run, newest first (at most `MAX_LISTED_RERUNS`). */
  reruns: z.array(RerunLinkSchema),
  /** The workflow's newest version now: Run again offers it when it is not this run's. */
  latestVersion: z.number().int().positive(),
  /** Today's prices of the models its agent steps name or used (none for a model without a price): what each step's tokens cost. */
  modelPrices: z.array(ModelPriceSchema),
});
export type RunDetail = z.infer<typeof RunDetailSchema>;

/** How many of the runs made from one run its page lists. */
export const MAX_LISTED_RERUNS = 50;
