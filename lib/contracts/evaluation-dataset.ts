import { z } from "zod";
import { ApiIssueSchema } from "./api-error";

/**
 * Evaluation datasets: a workflow's rows of run inputs, each with the output
 * it is expected to give when there is one, made from an uploaded CSV or JSON
 * Lines file or from past runs. What the API takes and answers, and the
 * limits both sides show.
 */

/** The largest file a dataset is made from: a bigger one is refused saying so, before it is parsed. */
export const DATASET_FILE_MAX_BYTES = 20_000_000;
/** The most rows a dataset holds: each row is a run when the dataset is evaluated. */
export const DATASET_MAX_ROWS = 10_000;
/** Bad rows named at most, the first of them: past this a file is wrong throughout, and the rest say nothing new. */
export const DATASET_MAX_PROBLEMS = 50;

export const DatasetFormatSchema = z.enum(["csv", "jsonl"]);
export type DatasetFormat = z.infer<typeof DatasetFormatSchema>;

/** Where a dataset's rows came from. */
export const DatasetSourceSchema = z.enum(["csv", "jsonl", "runs"]);

export const DatasetNameSchema = z.string().trim().min(1, "give the dataset a name").max(120, "a dataset's name is at most 120 characters");

/** POST /api/workflows/{id}/datasets?name=…&format=csv|jsonl, the file as the body. */
export const DatasetUploadQuerySchema = z.object({
  name: DatasetNameSchema,
  format: DatasetFormatSchema.describe("csv (a header row naming the workflow's inputs, and optionally `expected`) or jsonl (one object per line: inputs, expected)"),
});

/** POST /api/workflows/{id}/datasets/from-runs: past runs of the workflow become rows (their inputs, their outputs as expected). */
export const DatasetFromRunsSchema = z
  .object({
    name: DatasetNameSchema,
    runIds: z.array(z.string().min(1).max(200)).min(1, "pick at least one run").max(1_000, "pick at most 1,000 runs"),
  })
  .strict();
export type DatasetFromRuns = z.infer<typeof DatasetFromRunsSchema>;

export const DatasetRowSchema = z.object({
  /** 1, 2, 3… in the order of the file or of the runs picked. */
  position: z.number().int().positive(),
  inputs: z.record(z.string(), z.unknown()),
  /** What the run should give; absent: nothing is expected (a scorer that needs it says so). */
  expected: z.unknown().optional(),
  /** The run this row was made from, when it was. */
  sourceRunId: z.string().nullable(),
});
export type DatasetRow = z.infer<typeof DatasetRowSchema>;

export const DatasetSummarySchema = z.object({
  id: z.string(),
  workflowId: z.string(),
  name: z.string(),
  source: DatasetSourceSchema,
  rowCount: z.number().int().nonnegative(),
  /** How many rows carry an expected output. */
  expectedCount: z.number().int().nonnegative(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
});
export type DatasetSummary = z.infer<typeof DatasetSummarySchema>;

export const DatasetListResponseSchema = z.object({ datasets: z.array(DatasetSummarySchema) });

export const DatasetDetailSchema = DatasetSummarySchema.extend({ rows: z.array(DatasetRowSchema) });
export type DatasetDetail = z.infer<typeof DatasetDetailSchema>;

/** A 422 for a file with bad rows: each issue's path is `rows[<line>]` or `rows[<line>].<input>`, the line the file's own. */
export const DatasetProblemsSchema = z.array(ApiIssueSchema);
