import { z } from "zod";

/**
 * How long finished runs are kept. The studio-wide setting applies to every
 * workflow without its own; a workflow's own setting replaces it whole. A
 * limit left empty (null) does not limit: with all three empty, runs are kept
 * for ever (the default, as before retention existed).
 *
 * A finished run is removed when it is older than `keepDays`, or when it is
 * not among its workflow's newest `keepLast` runs. With `keepFailedDays` set,
 * a failed run is kept at least that many days even when the other two would
 * remove it sooner (to look into it). Running and waiting runs are never removed, and a run a step
 * of another run called (a sub-workflow's, a For each item's) goes with the
 * run that called it, never alone.
 */

/** A hundred years: more is a typo, not a policy. */
const MAX_DAYS = 36_500;

export const RetentionPolicySchema = z
  .strictObject({
    keepDays: z.number().int().min(1).max(MAX_DAYS).nullable().describe("Finished runs older than this many days are removed; null = no age limit"),
    keepLast: z.number().int().min(1).max(1_000_000).nullable().describe("Only each workflow's newest this many runs are kept; null = no count limit"),
    keepFailedDays: z
      .number()
      .int()
      .min(1)
      .max(MAX_DAYS)
      .nullable()
      .describe("Failed runs are kept at least this many days, even when the other limits would remove them sooner; null = they follow the other limits"),
  })
  .superRefine((policy, context) => {
    // "Kept longer" is what the field is for: a shorter time would remove failed runs sooner than the others, which no one asks for.
    if (policy.keepFailedDays !== null && policy.keepDays !== null && policy.keepFailedDays < policy.keepDays) {
      context.addIssue({ code: "custom", path: ["keepFailedDays"], message: `must be at least keepDays (${policy.keepDays}): failed runs are kept longer, not shorter` });
    }
  });
export type RetentionPolicy = z.infer<typeof RetentionPolicySchema>;

/** Keep everything: the setting of a studio nobody has configured. */
export const KEEP_EVERYTHING: RetentionPolicy = { keepDays: null, keepLast: null, keepFailedDays: null };

/** A workflow's own setting, as listed. */
export const WorkflowRetentionSchema = z.object({
  workflowId: z.string(),
  workflowName: z.string(),
  policy: RetentionPolicySchema,
});
export type WorkflowRetention = z.infer<typeof WorkflowRetentionSchema>;

/** GET /api/settings/retention (and the answer of its PUT). */
export const RetentionOverviewSchema = z.object({
  /** The studio-wide setting. */
  policy: RetentionPolicySchema,
  /** The workflows with a setting of their own. */
  workflows: z.array(WorkflowRetentionSchema),
  /** The database's size in bytes (SQLite: its file's pages; PostgreSQL: pg_database_size). */
  databaseBytes: z.number().int().nonnegative(),
  /** How many runs the settings as they are would remove now (their child runs not counted). */
  wouldRemove: z.number().int().nonnegative(),
  /** How the space of removed runs comes back, in words (SQLite without incremental auto-vacuum keeps its file size). */
  spaceNote: z.string(),
});
export type RetentionOverview = z.infer<typeof RetentionOverviewSchema>;

/** DELETE /api/runs/{id}: what went. */
export const DeletedRunSchema = z.object({
  id: z.string(),
  workflowId: z.string(),
  workflowName: z.string(),
  /** The run itself and the runs its steps called (sub-workflows, For each items), at every depth. */
  runsDeleted: z.number().int().positive(),
});
export type DeletedRun = z.infer<typeof DeletedRunSchema>;

/** A form's text box for a limit: empty = no limit, else the number typed (checked by RetentionPolicySchema). */
const LimitTextSchema = z
  .string()
  .trim()
  .transform((text) => (text === "" ? null : Number(text)));

/** The Settings page's form: text boxes in, the same setting (and the same messages, on the same fields) out as the API's. */
export const RetentionFormSchema = z
  .strictObject({ keepDays: LimitTextSchema, keepLast: LimitTextSchema, keepFailedDays: LimitTextSchema })
  .pipe(RetentionPolicySchema);
export type RetentionFormValues = z.input<typeof RetentionFormSchema>;

/** A setting as the form's text boxes show it. */
export function retentionFormValues(policy: RetentionPolicy): RetentionFormValues {
  const text = (value: number | null) => (value === null ? "" : String(value));
  return { keepDays: text(policy.keepDays), keepLast: text(policy.keepLast), keepFailedDays: text(policy.keepFailedDays) };
}
