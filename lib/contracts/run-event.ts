import { z } from "zod";
import { parseApprovalPreview } from "@/lib/tools/permissions/approval-preview";
import { ApprovalSummarySchema } from "./approval";
import { StepErrorKindSchema } from "./execution-settings";
import { CarriedAsSchema, RunSourceKindSchema, StepOutputSchema } from "./run";
import { ApprovalNotificationViewSchema } from "./notifications";
import { RunTriggerSchema } from "./run-trigger";

/**
 * The run's events as the engine emits and stores them, the SSE route
 * streams them and the run view reads them: one table of types, noun then
 * verb, each with its payload's schema. Adding a type is a line here plus its
 * handling in the run view (lib/run-view/apply-event.ts and describe-event.ts,
 * whose exhaustive switches the type checker holds to this table).
 *
 * Payloads are read from the database as they were written, possibly by an
 * older version: fields added later are optional, never required.
 */

/**
 * An approval as an event carries it; events stored before approvals had an
 * effect and a digest, or before a decider was a person (a name alone), still read.
 */
const EventApprovalSchema = z.preprocess((value) => {
  if (typeof value !== "object" || value === null) return value;
  const raw = value as Record<string, unknown>;
  const preview = typeof raw.preview === "string" ? raw.preview : "";
  const decidedBy = typeof raw.decidedBy === "string" ? { personId: null, name: raw.decidedBy } : raw.decidedBy;
  return { digest: "", ...raw, preview, effect: parseApprovalPreview(raw.effect, preview), decidedBy };
}, ApprovalSummarySchema);

/** What a tool reported while it ran: a message, a piece of its output (a command's stdout), or its todo list. */
const NodeProgressPayloadSchema = z.union([
  // First: the plain message below would match it too, and drop what makes it an item's.
  /** A For each item finished: how it ended, and the loop's progress in words. */
  z.object({
    type: z.literal("loop-item"),
    message: z.string(),
    item: z.number().int().nonnegative(),
    runId: z.string(),
    status: z.enum(["succeeded", "failed", "cancelled"]),
  }),
  z.object({ message: z.string() }),
  z.object({ type: z.literal("tool-output"), tool: z.string(), text: z.string() }),
  z.object({
    type: z.literal("todo-update"),
    tool: z.string(),
    items: z.array(z.object({ content: z.string(), status: z.string() })).readonly(),
  }),
]);

/** A tool call an agent made: the model's choice plus the node's bound arguments, secrets masked. */
const ToolCallSchema = z.object({
  turn: z.number().int().nonnegative(),
  callId: z.string(),
  /** The name the model used. */
  name: z.string(),
  /** The tool's stable name. */
  tool: z.string(),
  /** The attached tool node it went through; null for ask_user, todo and finish. */
  nodeId: z.string().nullable(),
  operation: z.string().nullable(),
  arguments: z.record(z.string(), z.unknown()),
});

/** An approval asked during a tool call, as its finished event lists it. */
const CallApprovalSchema = z.object({
  id: z.string(),
  kind: z.string(),
  status: z.string().optional(),
  decision: z.string().nullable(),
  feedback: z.string().nullable(),
});

/** The node-skipped reason of a step a test run leaves out: one it does not need, the steps behind a pin among them. */
export const TEST_RUN_EXCLUDED = "not part of this test run";

export const RUN_EVENT_PAYLOADS = {
  /** `source`: the run this one repeats (a retry from the failure, a run again), when it repeats one. */
  "run-started": z.object({
    inputs: z.record(z.string(), z.unknown()),
    trigger: RunTriggerSchema.optional(),
    source: z.object({ runId: z.string(), kind: RunSourceKindSchema }).optional(),
  }),
  /** The studio restarted and picked the run up again. */
  "run-resumed": z.object({}),
  "run-awaiting-input": z.object({ approvalId: z.string() }),
  "run-succeeded": z.object({ output: z.unknown() }),
  /** `errorWorkflowRunId`: the run of the workflow's error workflow this failure started. */
  "run-failed": z.object({ error: z.string().nullable(), errorWorkflowRunId: z.string().optional() }),
  "run-cancelled": z.object({ error: z.string().nullable(), cancelledBy: z.string().optional() }),
  /** `maxAttempts`: how many attempts it may take in all (its retry policy), when more than one. */
  "node-started": z.object({
    kind: z.string(),
    attempt: z.number().int().positive(),
    maxAttempts: z.number().int().positive().optional(),
    tool: z.string().optional(),
    operation: z.string().nullable().optional(),
  }),
  /**
   * Attempt `attempt` failed with an error worth trying again; attempt
   * `attempt + 1` starts at `retryAt`, `delayMs` after the failure.
   */
  "node-retry-scheduled": z.object({
    attempt: z.number().int().positive(),
    maxAttempts: z.number().int().positive(),
    error: z.string(),
    errorKind: StepErrorKindSchema,
    delayMs: z.number().int().nonnegative(),
    retryAt: z.string(),
  }),
  "node-progress": NodeProgressPayloadSchema,
  /** A note the step sent a person (IOHandler.notify). */
  "node-notified": z.object({ message: z.string() }),
  "node-succeeded": z.object({ output: StepOutputSchema, durationMs: z.number().nonnegative() }),
  /** A Sub-workflow step started the run `runId` of another workflow (on `version`) and waits for it; a For each step, the run of its item `item` (from 0) of `count`. */
  "child-run-started": z.object({
    runId: z.string(),
    workflowId: z.string(),
    workflowName: z.string(),
    version: z.number().int().positive(),
    item: z.number().int().nonnegative().optional(),
    count: z.number().int().positive().optional(),
  }),
  /** A retry from the failed step kept this step's result from run `fromRunId`: it succeeded there and does not run again. */
  /** `fromRunId`: the run whose result is kept (null for values typed for a test run); `as`: kept from a pin or typed values rather than that run. */
  "node-carried-over": z.object({ fromRunId: z.string().nullable(), as: CarriedAsSchema.optional(), output: StepOutputSchema }),
  /**
   * `handledBy`: the run goes on despite the failure: the steps after it read
   * the error (`continue`), or its error path is taken (`error-edge`).
   */
  "node-failed": z.object({
    error: z.string(),
    durationMs: z.number().nonnegative(),
    errorKind: StepErrorKindSchema.optional(),
    handledBy: z.enum(["continue", "error-edge"]).optional(),
  }),
  /**
   * Why it did not run: `attached` (a tool an agent calls; `agent` names it),
   * `in-loop`, `the run stopped`, TEST_RUN_EXCLUDED (a step a test run leaves
   * out), `this run was started by the …`, or none (its branch was not taken,
   * or what fed it failed).
   */
  "node-skipped": z.object({ reason: z.string().optional(), agent: z.string().nullable().optional(), loop: z.string().optional() }),
  /**
   * What one model call of an agent step used, as the provider reported it (the AI SDK's usage): tokens in (of them
   * `cachedInputTokens` read from the provider's cache) and out, for `model` of `provider`. Absent counts: not reported.
   */
  "node-model-usage": z.object({
    turn: z.number().int().nonnegative(),
    provider: z.string(),
    model: z.string(),
    inputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
    cachedInputTokens: z.number().int().nonnegative().optional(),
    /** How long the call took, from the request to its last token (absent in events stored before it was recorded). */
    durationMs: z.number().nonnegative().optional(),
  }),
  /** A piece of an agent's streamed answer in one turn (batched, about every 100 ms). */
  "node-text-delta": z.object({ turn: z.number().int().nonnegative(), text: z.string() }),
  "node-tool-call-started": ToolCallSchema,
  "node-tool-call-finished": ToolCallSchema.extend({
    isError: z.boolean(),
    content: z.string(),
    approvals: z.array(CallApprovalSchema).optional(),
  }),
  "approval-requested": z.object({ approval: EventApprovalSchema }),
  /**
   * One person approved `approvalId`, which needs `required` different people:
   * `approvals` of them have so far, and it waits for the rest. The approval
   * that completes it, or a denial, arrives as `approval-decided`.
   */
  "approval-voted": z.object({ approvalId: z.string(), by: z.string(), approvals: z.number().int().positive(), required: z.number().int().min(2) }),
  /** Nobody decided `approvalId` in time: it now waits for its policy's escalation approvers (its card says who, and until when). */
  "approval-escalated": z.object({ approvalId: z.string() }),
  /** A person (or a workflow's webhook) was told `approvalId` waits: delivered, or failed for good after its tries. */
  "approval-notified": z.object({ approvalId: z.string(), notification: ApprovalNotificationViewSchema.extend({ id: z.string() }) }),
  /** `by` opened `approvalId`'s card on its own (a notification's link, the edit form, the API): once per person in ten minutes. */
  "approval-viewed": z.object({ approvalId: z.string(), viewId: z.string(), by: z.string() }),
  /** Decided by a person, or withdrawn (status `cancelled`) when its run ended first. `requestedAt`: when it was asked (absent in older events). */
  "approval-decided": z.object({ approval: EventApprovalSchema, requestedAt: z.string().optional() }),
} as const;

type Payloads = typeof RUN_EVENT_PAYLOADS;
export type RunEventType = keyof Payloads;
export type RunEventPayload<Type extends RunEventType> = z.infer<Payloads[Type]>;

export const RUN_EVENT_TYPES = Object.keys(RUN_EVENT_PAYLOADS) as readonly RunEventType[];
export const RunEventTypeSchema = z.enum(RUN_EVENT_TYPES as [RunEventType, ...RunEventType[]]);

/** The events after which a run has nothing more to say; its stream then ends. */
export const RUN_ENDING_EVENT_TYPES: ReadonlySet<RunEventType> = new Set(["run-succeeded", "run-failed", "run-cancelled"]);

/** An event before it is stored: what the engine emits. */
export type NewRunEvent = { [Type in RunEventType]: { type: Type; nodeId: string | null; payload: RunEventPayload<Type> } }[RunEventType];

/** An event as stored and streamed; `seq` is its position in the run (1, 2, 3, …). */
export type RunEvent = NewRunEvent & { runId: string; seq: number; createdAt: string };

const envelope = {
  runId: z.string(),
  seq: z.number().int().positive(),
  nodeId: z.string().nullable(),
  createdAt: z.string(),
};

const eventSchemas = (Object.keys(RUN_EVENT_PAYLOADS) as RunEventType[]).map((type) =>
  z.object({ ...envelope, type: z.literal(type), payload: RUN_EVENT_PAYLOADS[type] as z.ZodType }),
);

/** The union of every event, discriminated on `type`. */
export const RunEventSchema = z.discriminatedUnion("type", eventSchemas as [(typeof eventSchemas)[number], ...(typeof eventSchemas)[number][]]) as unknown as z.ZodType<RunEvent>;

const UnknownTypeSchema = z.object({ ...envelope, type: z.string(), payload: z.unknown() });

/**
 * Reads one streamed event without trusting it: the event, `unknown` for a
 * well-formed event this client cannot use (a type from a newer server, or a
 * payload it cannot read: skip it, keep going), or null for something that
 * is no event at all.
 */
export function readRunEvent(data: string): RunEvent | "unknown" | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = RunEventSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  return UnknownTypeSchema.safeParse(value).success ? "unknown" : null;
}
