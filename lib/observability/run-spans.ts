/**
 * Turns a run's stored events into finished spans, as plain data (no
 * OpenTelemetry SDK here; lib/observability/run-tracing.ts exports them):
 *
 *   run (root, or under the caller's span / the parent step's span)
 *   ├─ step attempt (one span each; a retry links to the attempt before it)
 *   │  ├─ approval (the wait for a person)
 *   │  ├─ chat {model} (an agent's model call, GenAI conventions)
 *   │  └─ execute_tool {name} (an agent's tool call)
 *   └─ (a child run's or For each item's run span hangs under the step that started it, in its own run's export)
 *
 * Each span is made when what it stands for ends, by the process that
 * recorded that end, with ids from trace-context.ts, so nothing is exported
 * twice and no process needs another's memory. A start seen in this process is
 * remembered until its end; one recorded elsewhere comes from the stored step
 * or the event itself (a model call's duration, an approval's request time).
 *
 * What is exported is what the events say of the run's shape and outcome:
 * ids, kinds, tools, statuses, error kinds and error messages (masked of
 * secret values where the tools report them); inputs, arguments and outputs
 * only for a workflow that opted in (`traceContent`), as the run page shows them.
 */
import type { RunEvent } from "@/lib/contracts/run-event";
import type { ObservedRun } from "@/lib/workflow/run-engine";
import { approvalSpanId, modelCallSpanId, runTraceOf, stepSpanId, toolCallSpanId, type RunTrace } from "./trace-context";

export type SpanAttributes = Record<string, string | number | boolean>;

/** A finished span, ready to export. Times in milliseconds since the epoch. */
export interface SpanRecord {
  name: string;
  kind: "internal" | "client";
  /** The run's trace (its caller, if any): the exporter samples by it. */
  trace: RunTrace;
  /** Whether the run's trace came from outside the studio (a caller's traceparent) rather than a parent run. */
  callerOutside: boolean;
  spanId: string;
  /** Null: the root of its trace. */
  parentSpanId: string | null;
  startTime: number;
  endTime: number;
  attributes: SpanAttributes;
  status: { code: "ok" | "error" | "unset"; message?: string };
  links: { spanId: string; attributes: SpanAttributes }[];
}

/** The longest text a content attribute carries (a workflow that opted in): the rest is cut, as a backend would. */
const CONTENT_LIMIT = 4_096;

/** Starts remembered at most: a run that never ends here (parked for good) must not grow this without bound. */
const MAX_REMEMBERED_STARTS = 50_000;
/** Runs whose trace is remembered at most; past it they are worked out again. */
const MAX_REMEMBERED_TRACES = 10_000;

/** Trigger kinds whose traceparent the studio made itself (the parent step's span, the failed run's), not a caller. */
const CHILD_TRIGGERS = new Set(["sub-workflow", "for-each", "error-workflow"]);

export class RunSpanMapper {
  /** When something seen starting here began (ms), by key; forgotten at its end or its run's. */
  private readonly starts = new Map<string, number>();
  /** Each run's trace, by run id, while it runs here. */
  private readonly traces = new Map<string, RunTrace>();

  /** The spans the events finish, in order. */
  spansOf(run: ObservedRun, events: readonly RunEvent[]): SpanRecord[] {
    const spans: SpanRecord[] = [];
    for (const event of events) {
      const span = this.spanOf(run, event);
      if (span) spans.push(span);
    }
    return spans;
  }

  private spanOf(run: ObservedRun, event: RunEvent): SpanRecord | null {
    const at = Date.parse(event.createdAt);
    const nodeId = event.nodeId;
    switch (event.type) {
      case "run-started":
        this.remember(key(run.runId, "run"), at);
        return null;
      case "node-started":
        if (nodeId) this.remember(key(run.runId, "step", nodeId, event.payload.attempt), at);
        return null;
      case "node-tool-call-started":
        if (nodeId) this.remember(key(run.runId, "tool", nodeId, event.payload.callId), at);
        return null;
      case "approval-requested":
        this.remember(key(run.runId, "approval", event.payload.approval.id), at);
        return null;
      case "node-succeeded": {
        if (!nodeId) return null;
        const outcome = { "studio.step.status": "succeeded", ...content(run, "studio.step.output", event.payload.output) };
        return this.stepSpan(run, nodeId, at, outcome, { code: "ok" }, event.payload.durationMs);
      }
      case "node-failed": {
        if (!nodeId) return null;
        const { error, errorKind, handledBy } = event.payload;
        return this.stepSpan(
          run,
          nodeId,
          at,
          { "studio.step.status": "failed", ...(errorKind ? { "error.type": errorKind } : {}), ...(handledBy ? { "studio.step.handled_by": handledBy } : {}) },
          { code: "error", message: error },
          event.payload.durationMs,
        );
      }
      case "node-retry-scheduled": {
        if (!nodeId) return null;
        const { error, errorKind, delayMs, attempt } = event.payload;
        return this.stepSpan(
          run,
          nodeId,
          at,
          { "studio.step.status": "retrying", "error.type": errorKind, "studio.step.retry_delay_ms": delayMs },
          { code: "error", message: error },
          null,
          attempt,
        );
      }
      case "approval-decided":
        return this.approvalSpan(run, event, at);
      case "node-model-usage":
        return nodeId ? this.modelCallSpan(run, nodeId, event.payload, at) : null;
      case "node-tool-call-finished":
        return nodeId ? this.toolCallSpan(run, nodeId, event.payload, at) : null;
      case "run-succeeded":
        return this.runSpan(run, at, "succeeded", { code: "ok" }, content(run, "studio.run.output", event.payload.output));
      case "run-failed":
        return this.runSpan(run, at, "failed", { code: "error", message: event.payload.error ?? "The run failed." });
      case "run-cancelled":
        return this.runSpan(run, at, "cancelled", { code: "error", message: event.payload.error ?? "The run was cancelled." });
      default:
        return null;
    }
  }

  private runSpan(run: ObservedRun, at: number, status: string, spanStatus: SpanRecord["status"], extra: SpanAttributes = {}): SpanRecord {
    const started = this.take(key(run.runId, "run")) ?? parseTime(run.startedAt) ?? at;
    const trace = this.traceOf(run);
    this.forgetRun(run.runId);
    return {
      ...base(run, trace),
      name: `run ${run.workflowId}`,
      kind: "internal",
      spanId: trace.runSpanId,
      parentSpanId: trace.parent?.spanId ?? null,
      startTime: Math.min(started, at),
      endTime: at,
      attributes: {
        ...runAttributes(run),
        "studio.run.trigger": run.trigger.kind,
        "studio.run.status": status,
        ...(status === "succeeded" ? {} : { "error.type": status }),
        ...(run.loop ? { "studio.loop.index": run.loop.index, "studio.loop.count": run.loop.count } : {}),
        ...content(run, "studio.run.inputs", run.inputs),
        ...extra,
      },
      status: spanStatus,
      links: [],
    };
  }

  /**
   * An attempt's span, ended by its success, failure or retry. `durationMs`: the event's own measure, for an attempt
   * whose start neither this process saw nor the stored step says. None of the three (a step failed while it waited
   * for its next attempt, whose last attempt already has its span): no span.
   */
  private stepSpan(
    run: ObservedRun,
    nodeId: string,
    at: number,
    outcome: SpanAttributes,
    status: SpanRecord["status"],
    durationMs: number | null,
    attempt = run.attempts[nodeId] ?? 1,
  ): SpanRecord | null {
    const seen = this.take(key(run.runId, "step", nodeId, attempt));
    const stored = parseTime(run.stepsStartedAt.get(nodeId));
    const started = seen ?? stored ?? (durationMs !== null && durationMs > 0 ? at - durationMs : null);
    if (started === null) return null;
    const trace = this.traceOf(run);
    const node = run.definition.nodes.find((each) => each.id === nodeId);
    const agent = node?.kind === "agent" ? node : null;
    return {
      ...base(run, trace),
      name: agent ? `invoke_agent ${nodeId}` : `step ${nodeId}`,
      kind: "internal",
      spanId: stepSpanId(run.runId, nodeId, attempt),
      parentSpanId: trace.runSpanId,
      startTime: Math.min(started, at),
      endTime: at,
      attributes: {
        ...runAttributes(run),
        "studio.node.id": nodeId,
        ...(node ? { "studio.node.kind": node.kind } : {}),
        ...(node?.kind === "tool" ? { "studio.tool.name": node.tool, ...(node.operation ? { "studio.tool.operation": node.operation } : {}) } : {}),
        ...(agent
          ? { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": nodeId, "gen_ai.provider.name": agent.provider, "gen_ai.request.model": agent.model }
          : {}),
        "studio.step.attempt": attempt,
        ...outcome,
      },
      status,
      // Each retry points at the attempt that failed before it.
      links: attempt > 1 ? [{ spanId: stepSpanId(run.runId, nodeId, attempt - 1), attributes: { "studio.link": "previous-attempt" } }] : [],
    };
  }

  /** The wait for a person, under the step that asked (or the run, for its plan), from the request to the decision. */
  private approvalSpan(run: ObservedRun, event: Extract<RunEvent, { type: "approval-decided" }>, at: number): SpanRecord {
    const { approval, requestedAt } = event.payload;
    const started = this.take(key(run.runId, "approval", approval.id)) ?? parseTime(requestedAt) ?? at;
    const trace = this.traceOf(run);
    const nodeId = event.nodeId;
    return {
      ...base(run, trace),
      name: `approval ${approval.kind}`,
      kind: "internal",
      spanId: approvalSpanId(run.runId, approval.id),
      parentSpanId: nodeId ? stepSpanId(run.runId, nodeId, run.attempts[nodeId] ?? 1) : trace.runSpanId,
      startTime: Math.min(started, at),
      endTime: at,
      attributes: {
        ...runAttributes(run),
        ...(nodeId ? { "studio.node.id": nodeId } : {}),
        "studio.approval.id": approval.id,
        "studio.approval.kind": approval.kind,
        "studio.approval.status": approval.status,
        ...(approval.decision ? { "studio.approval.decision": approval.decision } : {}),
      },
      status: { code: "unset" },
      links: [],
    };
  }

  /** One model call of an agent step (GenAI: `chat {model}`, a client span), ending when its usage was reported. */
  private modelCallSpan(run: ObservedRun, nodeId: string, usage: Extract<RunEvent, { type: "node-model-usage" }>["payload"], at: number): SpanRecord {
    const attempt = run.attempts[nodeId] ?? 1;
    const trace = this.traceOf(run);
    return {
      ...base(run, trace),
      name: `chat ${usage.model}`,
      kind: "client",
      spanId: modelCallSpanId(run.runId, nodeId, attempt, usage.turn),
      parentSpanId: stepSpanId(run.runId, nodeId, attempt),
      startTime: at - (usage.durationMs ?? 0),
      endTime: at,
      attributes: {
        ...runAttributes(run),
        "studio.node.id": nodeId,
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": usage.provider,
        // The attribute's name before gen_ai.provider.name, which older backends still read.
        "gen_ai.system": usage.provider,
        "gen_ai.request.model": usage.model,
        "gen_ai.usage.input_tokens": usage.inputTokens,
        "gen_ai.usage.output_tokens": usage.outputTokens,
        ...(usage.cachedInputTokens !== undefined ? { "gen_ai.usage.cache_read.input_tokens": usage.cachedInputTokens } : {}),
        "studio.agent.turn": usage.turn,
      },
      status: { code: "unset" },
      links: [],
    };
  }

  /** One tool call of an agent step (GenAI: `execute_tool {name}`); its arguments and result stay out. */
  private toolCallSpan(run: ObservedRun, nodeId: string, call: Extract<RunEvent, { type: "node-tool-call-finished" }>["payload"], at: number): SpanRecord {
    const attempt = run.attempts[nodeId] ?? 1;
    const started = this.take(key(run.runId, "tool", nodeId, call.callId)) ?? at;
    const trace = this.traceOf(run);
    return {
      ...base(run, trace),
      name: `execute_tool ${call.name}`,
      kind: "internal",
      spanId: toolCallSpanId(run.runId, nodeId, attempt, call.callId),
      parentSpanId: stepSpanId(run.runId, nodeId, attempt),
      startTime: Math.min(started, at),
      endTime: at,
      attributes: {
        ...runAttributes(run),
        "studio.node.id": nodeId,
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": call.name,
        "gen_ai.tool.call.id": call.callId,
        "studio.tool.name": call.tool,
        ...(call.operation ? { "studio.tool.operation": call.operation } : {}),
        ...(call.nodeId ? { "studio.tool.node_id": call.nodeId } : {}),
        "studio.agent.turn": call.turn,
        ...(call.isError ? { "error.type": "tool_error" } : {}),
        // Secret inputs are masked in the recorded arguments, and tools' results masked of the secrets they used.
        ...content(run, "gen_ai.tool.call.arguments", call.arguments),
        ...content(run, "gen_ai.tool.call.result", call.content),
      },
      status: call.isError ? { code: "error" } : { code: "unset" },
      links: [],
    };
  }

  /** The run's trace, worked out once per run here (a hash or two and a parse), forgotten at its end. */
  private traceOf(run: ObservedRun): RunTrace {
    let trace = this.traces.get(run.runId);
    if (!trace) {
      if (this.traces.size >= MAX_REMEMBERED_TRACES) this.traces.clear();
      trace = runTraceOf(run.runId, run.trigger);
      this.traces.set(run.runId, trace);
    }
    return trace;
  }

  private remember(entry: string, at: number): void {
    if (this.starts.size >= MAX_REMEMBERED_STARTS) {
      // The oldest first (a Map keeps insertion order): a start that old belongs to a run that left this process.
      const oldest = this.starts.keys().next();
      if (!oldest.done) this.starts.delete(oldest.value);
    }
    this.starts.set(entry, at);
  }

  private take(entry: string): number | undefined {
    const at = this.starts.get(entry);
    this.starts.delete(entry);
    return at;
  }

  private forgetRun(runId: string): void {
    this.traces.delete(runId);
    const prefix = `${runId}\u0000`;
    for (const entry of this.starts.keys()) if (entry.startsWith(prefix)) this.starts.delete(entry);
  }
}

function key(runId: string, ...parts: (string | number)[]): string {
  return [runId, ...parts].join("\u0000");
}

function parseTime(value: string | null | undefined): number | null {
  if (!value) return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : at;
}


function base(run: ObservedRun, trace: RunTrace): Pick<SpanRecord, "trace" | "callerOutside"> {
  return { trace, callerOutside: trace.parent !== null && !CHILD_TRIGGERS.has(run.trigger.kind) };
}

/**
 * `value` as the attribute `name`, JSON unless it is text, when the run's workflow opted in to content in its traces
 * (`traceContent`); nothing otherwise. Values come from the events, as stored and shown: secrets already masked.
 */
function content(run: ObservedRun, name: string, value: unknown): SpanAttributes {
  if (run.definition.traceContent !== true || value === undefined) return {};
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return { [name]: text.length > CONTENT_LIMIT ? `${text.slice(0, CONTENT_LIMIT)}…` : text };
}

/** What every span of a run says of it. */
function runAttributes(run: ObservedRun): SpanAttributes {
  return {
    "studio.run.id": run.runId,
    "studio.workflow.id": run.workflowId,
    ...(run.version !== null ? { "studio.workflow.version": run.version } : {}),
  };
}
