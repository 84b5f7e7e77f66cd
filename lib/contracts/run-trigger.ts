import { z } from "zod";

/**
 * What started a run. A person pressed Run (or a script called the API with
 * the studio's token), the workflow CLI ran a file, an MCP client called the
 * workflow, a webhook delivery arrived, a schedule slot came round, a run
 * of another workflow failed and named this one its error workflow, or a
 * Sub-workflow step of another workflow's run called this one, or an
 * evaluation ran one row of its dataset.
 */
export const RUN_TRIGGER_KINDS = ["person", "cli", "mcp", "webhook", "schedule", "error-workflow", "sub-workflow", "for-each", "evaluation"] as const;
export const RunTriggerKindSchema = z.enum(RUN_TRIGGER_KINDS);
export type RunTriggerKind = z.infer<typeof RunTriggerKindSchema>;

/** Words for each kind, as the runs list and the run view say them. */
export const RUN_TRIGGER_LABELS: Record<RunTriggerKind, string> = {
  person: "Run button",
  cli: "Command line",
  mcp: "MCP client",
  webhook: "Webhook",
  schedule: "Schedule",
  "error-workflow": "Error workflow",
  "sub-workflow": "Sub-workflow step",
  "for-each": "For each step",
  evaluation: "Evaluation",
};

/**
 * The inputs an error workflow's run is given about the run that failed: its
 * id, its workflow's id and name, the node that failed (empty when the run as
 * a whole failed, its plan rejected) and that node's error and error kind.
 * Each reaches the run when the error workflow's Run inputs have a field of
 * that name ({{ inputs.error }}); the others are left out.
 */
export const ERROR_WORKFLOW_INPUTS = ["runId", "workflowId", "workflowName", "nodeId", "error", "errorKind"] as const;
export type ErrorWorkflowInputs = Record<(typeof ERROR_WORKFLOW_INPUTS)[number], string>;

/**
 * A W3C trace context (`traceparent`: version 00, a 32-hex trace id, a 16-hex parent span id, flags), neither id all
 * zeros. lib/observability/trace-context.ts reads and makes them.
 */
export const TRACEPARENT_PATTERN = /^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;
export const TraceparentSchema = z.string().regex(TRACEPARENT_PATTERN, "a W3C traceparent: 00-<32 hex>-<16 hex>-<2 hex>");

/** The details of a start that a person may want to see, stored with the run as JSON. */
export const RunTriggerDetailSchema = z.object({
  /** The webhook delivery's id (the sender's delivery id or idempotency key, else one the studio made). */
  deliveryId: z.string().max(200).optional(),
  /** The HTTP method and path a webhook was called with. */
  request: z.string().max(300).optional(),
  /** The schedule slot this run stands for (ISO time), and how many missed slots it stands in for. */
  slot: z.string().max(40).optional(),
  missedSlots: z.number().int().nonnegative().optional(),
  /** A delivery to the webhook's test address while an editor listened: it ran that editor's saved draft, not the published version. */
  test: z.boolean().optional(),
  /**
   * A test run started from the editor (with `test`): Run this step (`step`, the node alone, its upstream kept from
   * pins, the last run or typed values) or Run up to here (`up-to`, the paths that lead to it). Pins reach no other run.
   */
  testOf: z.object({ nodeId: z.string().max(200), mode: z.enum(["step", "up-to"]) }).optional(),
  /**
   * The trace this run continues: the caller's (a `traceparent` header on the run API or a webhook), or for a child
   * run (a Sub-workflow step's, a For each item's) its parent step's span. Kept with the run so a run resumed days
   * later, in another process, still joins it.
   */
  traceparent: TraceparentSchema.optional(),
  /** An evaluation's run: the evaluation and the dataset row (from 1) it ran; its page links back. */
  evaluation: z.object({ id: z.string().max(64), row: z.number().int().positive() }).optional(),
});
export type RunTriggerDetail = z.infer<typeof RunTriggerDetailSchema>;

export const RunTriggerSchema = RunTriggerDetailSchema.extend({
  kind: RunTriggerKindSchema,
  /** The trigger node the run started from; null for runs started at the run inputs node. */
  nodeId: z.string().nullable(),
});
export type RunTrigger = z.infer<typeof RunTriggerSchema>;

/** How a person pressing Run starts a run; the default of every start that says nothing. */
export const PERSON_TRIGGER: RunTrigger = { kind: "person", nodeId: null };

/** The stored columns of a trigger, read back; an unreadable detail is left out rather than failing the run's read. */
export function triggerFromColumns(kind: string, nodeId: string | null, detail: string | null): RunTrigger {
  const parsedKind = RunTriggerKindSchema.safeParse(kind);
  let details: RunTriggerDetail = {};
  if (detail) {
    try {
      const parsed = RunTriggerDetailSchema.safeParse(JSON.parse(detail));
      if (parsed.success) details = parsed.data;
    } catch {
      // Left out: see above.
    }
  }
  return { ...details, kind: parsedKind.success ? parsedKind.data : "person", nodeId };
}

/** The columns a trigger is stored in. */
export function triggerColumns(trigger: RunTrigger): { trigger: RunTriggerKind; triggerNodeId: string | null; triggerDetail: string | null } {
  const { kind, nodeId, ...detail } = trigger;
  return { trigger: kind, triggerNodeId: nodeId, triggerDetail: Object.keys(detail).length > 0 ? JSON.stringify(detail) : null };
}
