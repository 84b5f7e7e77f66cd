/**
 * Where a run's spans sit in a trace, worked out from ids alone: the trace id
 * and every span id are derived from the run's id (and the node, attempt,
 * approval or call), or taken from the caller's `traceparent` kept with the
 * run. So a run that starts in one process and goes on in another (a restart,
 * a worker that took over, an approval decided days later) still joins one
 * trace, each span written once by whoever ended it, with no state shared
 * between processes. Pure: no OpenTelemetry SDK is loaded for this.
 */
import { hash } from "node:crypto";
import { TRACEPARENT_PATTERN, type RunTrigger } from "@/lib/contracts/run-trigger";

/** A W3C trace context, parsed. */
export interface TraceParent {
  traceId: string;
  spanId: string;
  /** The caller's sampled flag (flags & 1). */
  sampled: boolean;
}

/** Where a run's own span sits: its trace, its id, and the span it is under (the caller's, or its parent step's), if any. */
export interface RunTrace {
  traceId: string;
  runSpanId: string;
  parent: TraceParent | null;
}

/** Reads a `traceparent` header value; null when absent or not a valid W3C trace context (then the run starts its own trace). */
export function parseTraceparent(value: string | null | undefined): TraceParent | null {
  if (!value) return null;
  // The contract's pattern, without a schema's parse: this runs for every span of a traced run.
  const text = value.trim().toLowerCase();
  if (!TRACEPARENT_PATTERN.test(text)) return null;
  const [, traceId, spanId, flags] = text.split("-") as [string, string, string, string];
  return { traceId, spanId, sampled: (Number.parseInt(flags, 16) & 1) === 1 };
}

export function formatTraceparent(parent: TraceParent): string {
  return `00-${parent.traceId}-${parent.spanId}-${parent.sampled ? "01" : "00"}`;
}

/**
 * The trigger detail a request's `traceparent` header gives a run: `{ traceparent }`, or nothing when the header is
 * absent, repeated or invalid (the run then starts a trace of its own, as W3C trace context asks).
 */
export function traceparentDetail(header: string | readonly string[] | null | undefined): { traceparent?: string } {
  const parent = typeof header === "string" ? parseTraceparent(header) : null;
  return parent ? { traceparent: formatTraceparent(parent) } : {};
}

/** `length` hex digits of the SHA-256 of the parts; never all zeros (an invalid id in W3C trace context). */
function derivedId(length: 16 | 32, parts: readonly (string | number)[]): string {
  // The one-shot hash, cheaper than createHash: this runs for every span.
  const id = hash("sha256", parts.join("\u0000"), "hex").slice(0, length);
  return /^0+$/.test(id) ? `${id.slice(0, -1)}1` : id;
}

/** The trace of run `runId`: its caller's (or its parent step's) when it was given one, else one of its own. */
export function runTraceOf(runId: string, trigger: Pick<RunTrigger, "traceparent">): RunTrace {
  const parent = parseTraceparent(trigger.traceparent);
  return { traceId: parent?.traceId ?? derivedId(32, ["trace", runId]), runSpanId: runSpanId(runId), parent };
}

export function runSpanId(runId: string): string {
  return derivedId(16, ["run", runId]);
}

/** The span of attempt `attempt` of node `nodeId` in run `runId`. */
export function stepSpanId(runId: string, nodeId: string, attempt: number): string {
  return derivedId(16, ["step", runId, nodeId, attempt]);
}

export function approvalSpanId(runId: string, approvalId: string): string {
  return derivedId(16, ["approval", runId, approvalId]);
}

/** An agent step's model call: one per turn of the attempt. */
export function modelCallSpanId(runId: string, nodeId: string, attempt: number, turn: number): string {
  return derivedId(16, ["chat", runId, nodeId, attempt, turn]);
}

/** An agent step's tool call, by the model's call id (unique within the step). */
export function toolCallSpanId(runId: string, nodeId: string, attempt: number, callId: string): string {
  return derivedId(16, ["tool", runId, nodeId, attempt, callId]);
}

/**
 * The traceparent a child run (a Sub-workflow step's, a For each item's) is
 * started with: the parent run's trace, under the span of the parent step's
 * attempt that started it, so the child's run span (and everything under it)
 * hangs in the parent's tree. The sampled flag is the caller's, when the
 * parent run had one.
 */
export function childTraceparent(parentRunId: string, parentTrigger: Pick<RunTrigger, "traceparent">, nodeId: string, attempt: number): string {
  const trace = runTraceOf(parentRunId, parentTrigger);
  return formatTraceparent({ traceId: trace.traceId, spanId: stepSpanId(parentRunId, nodeId, attempt), sampled: trace.parent?.sampled ?? true });
}

/**
 * The traceparent an error workflow's run is started with: the failed run's trace, under the failed run's own span,
 * so what handled a failure is found beside it.
 */
export function failedRunTraceparent(failedRunId: string, failedTrigger: Pick<RunTrigger, "traceparent">): string {
  const trace = runTraceOf(failedRunId, failedTrigger);
  return formatTraceparent({ traceId: trace.traceId, spanId: trace.runSpanId, sampled: trace.parent?.sampled ?? true });
}
