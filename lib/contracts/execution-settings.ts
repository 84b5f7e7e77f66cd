import { z } from "zod";
import { TOOL_ERROR_KINDS } from "@/lib/tools/contracts";

/**
 * How a step is executed when things go wrong: retries with backoff, a time
 * limit, and what happens once it has failed for good. One contract for the
 * node's schema (nodes/node-base.ts), the workflow's defaults
 * (lib/workflow/definition.ts), the inspector's "On failure" form and the run
 * engine; a node kind that runs nodes of its own (a loop's body) uses the
 * same settings for each of them.
 *
 * Every field of a node's settings is optional: what it leaves out comes from
 * the workflow's defaults (`executionPolicyOf`).
 */

/** The source handle an error edge leaves from: a node's "error" handle. */
export const ERROR_HANDLE = "error";

/** What happens once a step has failed for good (after its retries). */
export const ON_ERROR_ACTIONS = ["stop", "continue", "error-edge"] as const;
export type OnErrorAction = (typeof ON_ERROR_ACTIONS)[number];

/** Each action in words, for the inspector, the workflow settings and the run view. */
export const ON_ERROR_CHOICES: Readonly<Record<OnErrorAction, { label: string; explanation: string }>> = {
  stop: { label: "Stop the run", explanation: "The run fails here: nothing after this step starts." },
  continue: {
    label: "Continue with the error",
    explanation: "The steps after it run, and read the error as its output, e.g. {{ nodes.<id>.output.error.message }}.",
  },
  "error-edge": {
    label: "Follow the error path",
    explanation: "Only the steps on its red error path run, reading the error as its output; its normal path is skipped.",
  },
};

const optionLabels = (actions: readonly OnErrorAction[]) => Object.fromEntries(actions.map((action) => [action, ON_ERROR_CHOICES[action].label]));

export const OnErrorActionSchema = z.enum(ON_ERROR_ACTIONS).meta({
  title: "On error",
  description: "What happens once the step has failed, after its retries.",
  optionLabels: optionLabels(ON_ERROR_ACTIONS),
});

/** A workflow's default: an error path is drawn per node, so it cannot be every node's default. */
export const DefaultOnErrorActionSchema = z.enum(["stop", "continue"]);

/** The longest wait between attempts, and the longest time limit: a day. */
const DAY_MS = 86_400_000;

/**
 * Try a step again when it fails with an error that says trying again may
 * help (a time-out, a dropped connection, a busy database; never a denial or
 * bad input). Attempt n+1 starts `initialDelayMs × factor^(n-1)` after
 * attempt n failed, at most `maxDelayMs`.
 */
export const RetryPolicySchema = z
  .object({
    maxAttempts: z
      .number()
      .int()
      .min(1)
      .max(10)
      .meta({ title: "Attempts in all", description: "How many times the step may run in all, the first time included; 1 = no retries." }),
    initialDelayMs: z
      .number()
      .int()
      .min(0)
      .max(DAY_MS)
      .default(1000)
      .meta({ title: "First wait (ms)", description: "How long to wait before the second attempt." }),
    factor: z
      .number()
      .min(1)
      .max(10)
      .default(2)
      .meta({ title: "Backoff factor", description: "Each later wait is this many times the one before (1 = always the same wait)." }),
    maxDelayMs: z
      .number()
      .int()
      .min(0)
      .max(DAY_MS)
      .optional()
      .meta({ title: "Longest wait (ms)", description: "No wait between attempts is longer than this." }),
  })
  .meta({ title: "Retries", description: "Only errors that say trying again may help are retried; a denial never is." });
export type RetryPolicy = z.infer<typeof RetryPolicySchema>;

const TimeoutSchema = z
  .number()
  .int()
  .min(100)
  .max(DAY_MS)
  .meta({ title: "Time limit (ms)", description: "Stop an attempt that runs longer than this; time spent waiting for a person does not count." });

/** A node's own settings; what it leaves out comes from the workflow's defaults. */
export const NodeExecutionSchema = z.object({
  retry: RetryPolicySchema.optional(),
  timeoutMs: TimeoutSchema.optional(),
  onError: OnErrorActionSchema.optional(),
});
export type NodeExecution = z.infer<typeof NodeExecutionSchema>;

/** A workflow's defaults for its nodes' retries and time limit (its default on error is the definition's `onError`). */
export const WorkflowExecutionDefaultsSchema = NodeExecutionSchema.pick({ retry: true, timeoutMs: true });
export type WorkflowExecutionDefaults = z.infer<typeof WorkflowExecutionDefaultsSchema>;

/** What the engine does for one node: the node's settings over the workflow's defaults, nothing left open. */
export interface ExecutionPolicy {
  /** Attempts in all; 1 = no retries. */
  maxAttempts: number;
  initialDelayMs: number;
  factor: number;
  maxDelayMs: number | null;
  timeoutMs: number | null;
  onError: OnErrorAction;
}

/** What `executionPolicyOf` reads of a workflow. */
export interface ExecutionDefaultsSource {
  onError: z.infer<typeof DefaultOnErrorActionSchema>;
  execution?: WorkflowExecutionDefaults | undefined;
}

/**
 * A node's policy: each of its settings (retries, time limit, on error) where
 * it has one, else the workflow's.
 *
 * @example
 *   executionPolicyOf({ execution: { onError: "error-edge" } }, { onError: "stop", execution: { timeoutMs: 5000 } })
 *   // { maxAttempts: 1, …, timeoutMs: 5000, onError: "error-edge" }
 */
export function executionPolicyOf(node: { execution?: NodeExecution | undefined }, workflow: ExecutionDefaultsSource): ExecutionPolicy {
  const own = node.execution ?? {};
  const retry = own.retry ?? workflow.execution?.retry;
  return {
    maxAttempts: retry?.maxAttempts ?? 1,
    initialDelayMs: retry?.initialDelayMs ?? 1000,
    factor: retry?.factor ?? 2,
    maxDelayMs: retry?.maxDelayMs ?? null,
    timeoutMs: own.timeoutMs ?? workflow.execution?.timeoutMs ?? null,
    onError: own.onError ?? workflow.onError,
  };
}

/**
 * How long to wait after attempt `failedAttempt` (1, 2, …) failed before the
 * next: the first wait, multiplied by the factor once per earlier retry, at
 * most the longest wait.
 *
 * @example
 *   retryDelayMs({ initialDelayMs: 1000, factor: 2, maxDelayMs: 3000 }, 1) // 1000
 *   retryDelayMs({ initialDelayMs: 1000, factor: 2, maxDelayMs: 3000 }, 3) // 3000 (4000, capped)
 */
export function retryDelayMs(policy: Pick<ExecutionPolicy, "initialDelayMs" | "factor" | "maxDelayMs">, failedAttempt: number): number {
  const delay = policy.initialDelayMs * policy.factor ** Math.max(0, failedAttempt - 1);
  return Math.round(Math.min(delay, policy.maxDelayMs ?? Number.POSITIVE_INFINITY, DAY_MS));
}

/**
 * What kind of failure a step's error is: a tool's own kind (lib/tools/tool-error.ts),
 * or the engine's: `template` (a template that resolves to nothing), `interrupted`
 * (a restart cut the step off), `internal` (a bug).
 */
export const STEP_ERROR_KINDS = [...TOOL_ERROR_KINDS, "template", "interrupted", "internal"] as const;
export const StepErrorKindSchema = z.enum(STEP_ERROR_KINDS);
export type StepErrorKind = z.infer<typeof StepErrorKindSchema>;

/**
 * What the steps after a failed one read as its output when it continues
 * or follows its error path: `{{ nodes.<id>.output.error.message }}`,
 * `… .error.kind`, `… .error.nodeId`.
 */
export const StepErrorOutputSchema = z.object({
  error: z.object({ message: z.string(), kind: StepErrorKindSchema, nodeId: z.string() }),
});
export type StepErrorOutput = z.infer<typeof StepErrorOutputSchema>;
