import { z } from "zod";
import { RunStatusSchema } from "./run-status";
import { ScorerSchema, VerdictSchema } from "./evaluation-scorer";

/**
 * Evaluation runs: a version of a workflow (or its draft) run over a
 * dataset's rows, each row a real run (trigger `evaluation`), its output
 * scored by the evaluation's scorers. What the API takes and answers, and
 * what the evaluation pages show. lib/evaluations/evaluation-plan.ts decides
 * what starts next; lib/server/evaluations runs it.
 */

/** Most runs of one evaluation at once: an evaluation shares the studio with every other run. */
export const MAX_EVALUATION_CONCURRENCY = 10;
export const DEFAULT_EVALUATION_CONCURRENCY = 2;
/** Most scorers an evaluation has: each is a column of its results, and a judge a model call per row. */
export const MAX_EVALUATION_SCORERS = 10;

/** The newest saved version (what the editor last saved: its draft), or a version by number. */
export const EvaluationVersionSchema = z.union([z.literal("draft"), z.number().int().positive("a version number, 1 or more")]);
export type EvaluationVersion = z.infer<typeof EvaluationVersionSchema>;

/** POST /api/workflows/{id}/evaluations. */
export const EvaluationStartSchema = z
  .object({
    datasetId: z.string().trim().min(1, "choose a dataset").max(64),
    version: EvaluationVersionSchema.default("draft").describe("The version to evaluate: draft (the newest saved) or its number"),
    scorers: z
      .array(ScorerSchema)
      .min(1, "add at least one scorer")
      .max(MAX_EVALUATION_SCORERS, `at most ${MAX_EVALUATION_SCORERS} scorers`)
      .superRefine((scorers, context) => {
        const seen = new Set<string>();
        scorers.forEach((scorer, index) => {
          if (seen.has(scorer.name)) context.addIssue({ code: "custom", path: [index, "name"], message: `another scorer is named “${scorer.name}”: each needs its own name` });
          seen.add(scorer.name);
        });
      }),
    concurrency: z
      .number()
      .int("a whole number")
      .min(1, "at least 1")
      .max(MAX_EVALUATION_CONCURRENCY, `at most ${MAX_EVALUATION_CONCURRENCY}`)
      .default(DEFAULT_EVALUATION_CONCURRENCY)
      .describe("How many rows run at once"),
  })
  .strict();
export type EvaluationStart = z.infer<typeof EvaluationStartSchema>;
export type EvaluationStartInput = z.input<typeof EvaluationStartSchema>;

/** Where an evaluation stands: rows still to run or running, all done, or stopped by a person. */
export const EVALUATION_STATUSES = ["running", "finished", "cancelled"] as const;
export const EvaluationStatusSchema = z.enum(EVALUATION_STATUSES);
export type EvaluationStatus = z.infer<typeof EvaluationStatusSchema>;

/**
 * Where one row stands: waiting for a slot, its run going, its run ended and scored, its run could not start (the
 * reason in `error`), or cancelled with the evaluation before it ended.
 */
export const RESULT_STATUSES = ["pending", "running", "scored", "error", "cancelled"] as const;
export const ResultStatusSchema = z.enum(RESULT_STATUSES);
export type ResultStatus = z.infer<typeof ResultStatusSchema>;
export const FINISHED_RESULT_STATUSES: ReadonlySet<ResultStatus> = new Set(["scored", "error", "cancelled"]);

/** One scorer's figures over the rows it scored (a row it could not score counts in neither). */
export const ScorerAverageSchema = z.object({
  name: z.string(),
  kind: z.string(),
  /** The mean score, 0 to 1; null before any row is scored. */
  average: z.number().nullable(),
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** Rows it gave no score (no expected output, the judge unreachable). */
  unscored: z.number().int().nonnegative(),
});
export type ScorerAverage = z.infer<typeof ScorerAverageSchema>;

/** How many rows stand where. */
export const EvaluationProgressSchema = z.object({
  pending: z.number().int().nonnegative(),
  running: z.number().int().nonnegative(),
  scored: z.number().int().nonnegative(),
  error: z.number().int().nonnegative(),
  cancelled: z.number().int().nonnegative(),
});
export type EvaluationProgress = z.infer<typeof EvaluationProgressSchema>;

export const EvaluationSummarySchema = z.object({
  id: z.string(),
  workflowId: z.string(),
  version: z.number().int(),
  /** Started as the draft (the newest saved version then), not a version picked by number. */
  draft: z.boolean(),
  datasetId: z.string(),
  datasetName: z.string(),
  scorers: z.array(ScorerSchema),
  concurrency: z.number().int(),
  status: EvaluationStatusSchema,
  rowCount: z.number().int().nonnegative(),
  progress: EvaluationProgressSchema,
  averages: z.array(ScorerAverageSchema),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  createdBy: z.string().nullable(),
});
export type EvaluationSummary = z.infer<typeof EvaluationSummarySchema>;

export const EvaluationResultSchema = z.object({
  position: z.number().int().positive(),
  status: ResultStatusSchema,
  inputs: z.record(z.string(), z.unknown()),
  expected: z.unknown().optional(),
  runId: z.string().nullable(),
  runStatus: RunStatusSchema.nullable(),
  /** What the run gave (its output node's value); null until it ended, or when it gave nothing. */
  output: z.unknown().nullable(),
  /** Why the run could not start, or why it failed. */
  error: z.string().nullable(),
  /** One per scorer, in the evaluation's order; empty until scored. */
  verdicts: z.array(VerdictSchema),
  durationMs: z.number().int().nonnegative().nullable(),
  inputTokens: z.number().int().nonnegative().nullable(),
  outputTokens: z.number().int().nonnegative().nullable(),
  /** Micro-dollars at the prices when the row was scored; null when no model it used has a price. */
  costMicros: z.number().int().nonnegative().nullable(),
  failedSteps: z.number().int().nonnegative().nullable(),
});
export type EvaluationResult = z.infer<typeof EvaluationResultSchema>;

export const EvaluationDetailSchema = EvaluationSummarySchema.extend({
  results: z.array(EvaluationResultSchema),
  /** Totals over the rows whose runs ended. */
  totals: z.object({
    durationMs: z.number().int().nonnegative(),
    inputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
    costMicros: z.number().int().nonnegative().nullable(),
    failedSteps: z.number().int().nonnegative(),
  }),
});
export type EvaluationDetail = z.infer<typeof EvaluationDetailSchema>;

export const EvaluationListResponseSchema = z.object({ evaluations: z.array(EvaluationSummarySchema) });

/**
 * What the evaluation form shows before a start (GET /api/workflows/{id}/evaluations?preflight=…): the steps of the
 * chosen version that ask a person for approval in every row's run (and so wait in the inbox) and those that would
 * but are pinned, and so keep their pinned output in an evaluation instead of running.
 */
export const EvaluationPreflightSchema = z.object({
  version: z.number().int(),
  asks: z.array(z.object({ nodeId: z.string(), title: z.string() })),
  pinned: z.array(z.object({ nodeId: z.string(), title: z.string() })),
  /** Why this version cannot be evaluated at all (no output step): the start is refused with this. */
  refusal: z.string().nullable(),
});
export type EvaluationPreflight = z.infer<typeof EvaluationPreflightSchema>;
