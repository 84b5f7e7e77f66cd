import { z } from "zod";

/** Where a run stands. `awaiting_input` = at least one step waits for a person. */
export const RUN_STATUSES = ["running", "succeeded", "failed", "cancelled", "awaiting_input"] as const;
export const RunStatusSchema = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatusSchema>;

export const FINISHED_RUN_STATUSES: ReadonlySet<RunStatus> = new Set(["succeeded", "failed", "cancelled"]);

/**
 * Where one node of a run stands. `waiting` = it waits for a person's
 * decision; `retrying` = an attempt failed with an error worth trying again,
 * and it waits for its next attempt (the step's `retryAt`).
 */
export const NODE_STATUSES = ["pending", "running", "waiting", "retrying", "succeeded", "failed", "skipped"] as const;
export const NodeStatusSchema = z.enum(NODE_STATUSES);
export type NodeStatus = z.infer<typeof NodeStatusSchema>;
