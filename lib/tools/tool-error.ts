import { z } from "zod";

/**
 * What kind of failure a `ToolResult.error` is, so whoever runs the tool can
 * decide what to do next without reading its text: a workflow step retries
 * the transient kinds, never a refusal.
 *
 * - `invalid-input`: the arguments or settings do not fit (a retry would fail the same way);
 * - `denied`: a person or a guardrail said no;
 * - `confinement`: a path outside its root, or one a guardrail never allows;
 * - `not-found`: what the call names does not exist;
 * - `timeout`: no answer in time;
 * - `network`: the connection failed (refused, reset, a name that did not resolve right now);
 * - `unavailable`: the other side answered that it cannot serve now (HTTP 5xx, 429);
 * - `busy`: a resource is locked for a moment (SQLite busy);
 * - `cancelled`: the call was stopped (its run was cancelled);
 * - `failed`: anything else.
 */
export const TOOL_ERROR_KINDS = [
  "invalid-input",
  "denied",
  "confinement",
  "not-found",
  "timeout",
  "network",
  "unavailable",
  "busy",
  "cancelled",
  "failed",
] as const;
export const ToolErrorKindSchema = z.enum(TOOL_ERROR_KINDS);
export type ToolErrorKind = z.infer<typeof ToolErrorKindSchema>;

/** Kinds that often succeed when tried again a moment later. */
const TRANSIENT: ReadonlySet<ToolErrorKind> = new Set(["timeout", "network", "unavailable", "busy"]);

/** Kinds that are never tried again, whatever the tool says: a refusal stays a refusal. */
const NEVER_RETRIED: ReadonlySet<ToolErrorKind> = new Set(["invalid-input", "denied", "confinement", "cancelled"]);

/**
 * Whether a failure of `kind` may be tried again: `requested` when the tool
 * said so, else whether the kind is transient. A denial, bad input, a
 * confinement refusal or a cancellation is never retryable.
 *
 * @example
 *   isRetryable("network")            // true
 *   isRetryable("denied", true)       // false: a denial is never retried
 *   isRetryable("failed", true)       // true: the tool knows this failure is transient
 */
export function isRetryable(kind: ToolErrorKind, requested?: boolean): boolean {
  if (NEVER_RETRIED.has(kind)) return false;
  return requested ?? TRANSIENT.has(kind);
}

/** How a tool describes a failure: its kind, and whether trying again may help (default: by kind). */
export interface ToolErrorOptions {
  kind?: ToolErrorKind;
  retryable?: boolean;
}
