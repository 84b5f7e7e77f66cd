import { z } from "zod";

/** One field issue as the API reports it: the field as a dotted path (`inputs.name`, `nodes[2].tool`), and what was expected. */
export const ApiIssueSchema = z.object({
  path: z.string(),
  message: z.string(),
  /** The zod issue code (`invalid_type`, `too_small`, …) or the API's own (`custom`). */
  code: z.string(),
});
export type ApiIssue = z.infer<typeof ApiIssueSchema>;

/**
 * The body of every failed API call (4xx, 5xx): a message written to be shown
 * as is, the field issues of a 422, and details some answers add (the
 * approval a 409 is about, `reauthenticate` on a 403 that wants the password
 * again, a machine-readable `reason`). Unknown details pass through.
 */
export const ApiErrorBodySchema = z.looseObject({
  error: z.string().min(1),
  issues: z.array(ApiIssueSchema).optional(),
  reason: z.string().optional(),
  reauthenticate: z.boolean().optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBodySchema>;
