import { describe, expect, it } from "vitest";
import type { NewRunEvent, RunEvent } from "@/lib/contracts/run-event";
import { sampleEvents } from "@/lib/contracts/run-event-samples";
import type { RunTrigger } from "@/lib/contracts/run-trigger";
import type { WorkflowDefinition } from "@/lib/workflow/definition";
import type { ObservedRun } from "@/lib/workflow/run-engine";
import { RunSpanMapper, type SpanRecord } from "./run-spans";
import { approvalSpanId, childTraceparent, failedRunTraceparent, modelCallSpanId, parseTraceparent, runSpanId, runTraceOf, stepSpanId, traceparentDetail } from "./trace-context";

/** The workflow the runs below run: a tool step with retries, an agent, and a For each. */
const definition = {
  mode: "auto",
  onError: "stop",
  nodes: [
    { id: "in", kind: "input", fields: [] },
    { id: "fetch", kind: "tool", tool: "http_request", operation: "get", settings: {}, arguments: {} },
    { id: "agent", kind: "agent", provider: "openai", model: "gpt-4.1-mini", task: "t" },
  ],
  edges: [],
} as unknown as WorkflowDefinition;

function observedRun(overrides: Partial<ObservedRun> = {}): ObservedRun & { attempts: Record<string, number> } {
  return {
    runId: "run-1",
    workflowId: "wf-1",
    version: 3,
    startedAt: "2026-12-01T10:00:00.000Z",
    trigger: { kind: "person", nodeId: null },
    inputs: { note: "an input" },
    definition,
    loop: null,
    attempts: {},
    stepsStartedAt: new Map(),
    ...overrides,
  } as ObservedRun & { attempts: Record<string, number> };
}

let seq = 0;
function at(second: number, runId: string, body: NewRunEvent): RunEvent {
  return { ...body, runId, seq: ++seq, createdAt: new Date(Date.UTC(2026, 11, 1, 10, 0, second)).toISOString() } as RunEvent;
}

const time = (second: number) => Date.UTC(2026, 11, 1, 10, 0, second);

describe("a run's spans", () => {
  it("make a run span over its step attempts, a retry linked to the attempt before it, each ended by the event that ends it", () => {
    const mapper = new RunSpanMapper();
    const run = observedRun();
    const spans: SpanRecord[] = [];
    const tell = (...events: RunEvent[]) => spans.push(...mapper.spansOf(run, events));
    tell(at(0, "run-1", { type: "run-started", nodeId: null, payload: { inputs: {} } }));
    run.attempts.fetch = 1;
    tell(at(1, "run-1", { type: "node-started", nodeId: "fetch", payload: { kind: "tool", attempt: 1, maxAttempts: 2, tool: "http_request", operation: "get" } }));
    tell(
      at(2, "run-1", {
        type: "node-retry-scheduled",
        nodeId: "fetch",
        payload: { attempt: 1, maxAttempts: 2, error: "HTTP 503", errorKind: "unavailable", delayMs: 1000, retryAt: new Date(time(3)).toISOString() },
      }),
    );
    run.attempts.fetch = 2;
    tell(at(3, "run-1", { type: "node-started", nodeId: "fetch", payload: { kind: "tool", attempt: 2, maxAttempts: 2, tool: "http_request", operation: "get" } }));
    tell(at(5, "run-1", { type: "node-succeeded", nodeId: "fetch", payload: { output: { content: "ok" }, durationMs: 2000 } }));
    expect(spans).toHaveLength(2);
    tell(at(6, "run-1", { type: "run-succeeded", nodeId: null, payload: { output: "ok" } }));

    const trace = runTraceOf("run-1", run.trigger);
    const [first, second, root] = spans as [SpanRecord, SpanRecord, SpanRecord];
    expect(root).toMatchObject({ name: "run wf-1", spanId: runSpanId("run-1"), parentSpanId: null, startTime: time(0), endTime: time(6), status: { code: "ok" } });
    expect(root.attributes).toMatchObject({ "studio.run.id": "run-1", "studio.workflow.id": "wf-1", "studio.workflow.version": 3, "studio.run.trigger": "person", "studio.run.status": "succeeded" });
    expect(first).toMatchObject({ name: "step fetch", spanId: stepSpanId("run-1", "fetch", 1), parentSpanId: trace.runSpanId, startTime: time(1), endTime: time(2), links: [] });
    expect(first.status).toEqual({ code: "error", message: "HTTP 503" });
    expect(first.attributes).toMatchObject({
      "studio.node.id": "fetch",
      "studio.node.kind": "tool",
      "studio.tool.name": "http_request",
      "studio.tool.operation": "get",
      "studio.step.attempt": 1,
      "studio.step.status": "retrying",
      "error.type": "unavailable",
    });
    expect(second).toMatchObject({ spanId: stepSpanId("run-1", "fetch", 2), startTime: time(3), endTime: time(5), status: { code: "ok" } });
    expect(second.links).toEqual([{ spanId: stepSpanId("run-1", "fetch", 1), attributes: { "studio.link": "previous-attempt" } }]);
    expect(new Set(spans.map((span) => span.trace.traceId))).toEqual(new Set([trace.traceId]));
  });

  it("join the same trace when the run ends in another process: starts come from the stored step, the run and the approval", () => {
    // Process A started the step and asked for approval, then let the run go (parked).
    const before = new RunSpanMapper();
    const runInA = observedRun({ attempts: { fetch: 1 } });
    expect(
      before.spansOf(runInA, [
        at(0, "run-1", { type: "run-started", nodeId: null, payload: { inputs: {} } }),
        at(1, "run-1", { type: "node-started", nodeId: "fetch", payload: { kind: "tool", attempt: 1 } }),
        at(2, "run-1", { type: "approval-requested", nodeId: "fetch", payload: { approval: sampleApproval() } }),
      ]),
    ).toEqual([]);
    // Process B, days later, knows only what is stored.
    const after = new RunSpanMapper();
    const runInB = observedRun({ attempts: { fetch: 1 }, stepsStartedAt: new Map([["fetch", new Date(time(1)).toISOString()]]) });
    const decided = sampleEvents("fetch").find((event) => event.type === "approval-decided")!;
    const spans = after.spansOf(runInB, [
      { ...decided, runId: "run-1", createdAt: new Date(time(50)).toISOString(), payload: { ...(decided.payload as object), requestedAt: new Date(time(2)).toISOString() } } as RunEvent,
      at(51, "run-1", { type: "node-succeeded", nodeId: "fetch", payload: { output: { content: "ok" }, durationMs: 1000 } }),
      at(52, "run-1", { type: "run-succeeded", nodeId: null, payload: { output: null } }),
    ]);
    const [approval, step, root] = spans as [SpanRecord, SpanRecord, SpanRecord];
    expect(approval).toMatchObject({ name: "approval write", spanId: approvalSpanId("run-1", "approval-1"), parentSpanId: stepSpanId("run-1", "fetch", 1), startTime: time(2), endTime: time(50) });
    expect(approval.attributes).toMatchObject({ "studio.approval.status": "approved", "studio.approval.decision": "once" });
    expect(step).toMatchObject({ spanId: stepSpanId("run-1", "fetch", 1), startTime: time(1), endTime: time(51) });
    expect(root).toMatchObject({ spanId: runSpanId("run-1"), startTime: time(0), endTime: time(52) });
  });

  it("make an agent step an invoke_agent span with a chat span per model call and an execute_tool span per tool call (GenAI conventions)", () => {
    const mapper = new RunSpanMapper();
    const run = observedRun({ attempts: { agent: 1 } });
    const call = { turn: 0, callId: "call-1", name: "read_file", tool: "read_file", nodeId: "reader", operation: null, arguments: { path: "secret.txt" } };
    const spans = mapper.spansOf(run, [
      at(0, "run-1", { type: "node-started", nodeId: "agent", payload: { kind: "agent", attempt: 1 } }),
      at(2, "run-1", { type: "node-model-usage", nodeId: "agent", payload: { turn: 0, provider: "openai", model: "gpt-4.1-mini", inputTokens: 120, outputTokens: 8, cachedInputTokens: 100, durationMs: 1500 } }),
      at(3, "run-1", { type: "node-tool-call-started", nodeId: "agent", payload: call }),
      at(4, "run-1", { type: "node-tool-call-finished", nodeId: "agent", payload: { ...call, isError: true, content: "the file's text" } }),
      at(6, "run-1", { type: "node-succeeded", nodeId: "agent", payload: { output: { content: "done" }, durationMs: 6000 } }),
    ]);
    const [chat, tool, agent] = spans as [SpanRecord, SpanRecord, SpanRecord];
    const agentSpan = stepSpanId("run-1", "agent", 1);
    expect(chat).toMatchObject({ name: "chat gpt-4.1-mini", kind: "client", spanId: modelCallSpanId("run-1", "agent", 1, 0), parentSpanId: agentSpan, startTime: time(2) - 1500, endTime: time(2) });
    expect(chat.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-4.1-mini",
      "gen_ai.usage.input_tokens": 120,
      "gen_ai.usage.output_tokens": 8,
      "gen_ai.usage.cache_read.input_tokens": 100,
    });
    expect(tool).toMatchObject({ name: "execute_tool read_file", parentSpanId: agentSpan, startTime: time(3), endTime: time(4), status: { code: "error" } });
    expect(tool.attributes).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "read_file", "gen_ai.tool.call.id": "call-1", "error.type": "tool_error" });
    expect(agent).toMatchObject({ name: "invoke_agent agent", spanId: agentSpan });
    expect(agent.attributes).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "gen_ai.provider.name": "openai", "gen_ai.request.model": "gpt-4.1-mini" });
    // Arguments and results are not attributes.
    expect(JSON.stringify(spans)).not.toContain("secret.txt");
    expect(JSON.stringify(spans)).not.toContain("the file's text");
  });

  it("carry the run's inputs and output, steps' outputs and tool calls' arguments and results only when the workflow opted in", () => {
    const call = { turn: 0, callId: "call-1", name: "read_file", tool: "read_file", nodeId: "reader", operation: null, arguments: { path: "a.txt", token: "••••••" } };
    const events = [
      at(0, "run-1", { type: "run-started", nodeId: null, payload: { inputs: { note: "an input" } } }),
      at(1, "run-1", { type: "node-started", nodeId: "agent", payload: { kind: "agent", attempt: 1 } }),
      at(2, "run-1", { type: "node-tool-call-started", nodeId: "agent", payload: call }),
      at(3, "run-1", { type: "node-tool-call-finished", nodeId: "agent", payload: { ...call, isError: false, content: "x".repeat(5000) } }),
      at(4, "run-1", { type: "node-succeeded", nodeId: "agent", payload: { output: { content: "done", data: { answer: "done" } }, durationMs: 3000 } }),
      at(5, "run-1", { type: "run-succeeded", nodeId: null, payload: { output: { answer: 42 } } }),
    ];
    const hidden = new RunSpanMapper().spansOf(observedRun({ attempts: { agent: 1 } }), events);
    expect(JSON.stringify(hidden)).not.toMatch(/an input|a\.txt|"done"|answer/);

    const shown = new RunSpanMapper().spansOf(observedRun({ attempts: { agent: 1 }, definition: { ...definition, traceContent: true } }), events);
    const [tool, agent, root] = shown as [SpanRecord, SpanRecord, SpanRecord];
    expect(tool.attributes["gen_ai.tool.call.arguments"]).toBe('{"path":"a.txt","token":"••••••"}');
    expect(tool.attributes["gen_ai.tool.call.result"]).toBe(`${"x".repeat(4096)}…`);
    expect(agent.attributes["studio.step.output"]).toBe('{"content":"done","data":{"answer":"done"}}');
    expect(root.attributes).toMatchObject({ "studio.run.inputs": '{"note":"an input"}', "studio.run.output": '{"answer":42}' });
  });

  it("make no second span for an attempt already ended (a step failed while it waited for its next attempt)", () => {
    const mapper = new RunSpanMapper();
    const run = observedRun({ attempts: { fetch: 1 } });
    const spans = mapper.spansOf(run, [
      at(0, "run-1", { type: "node-started", nodeId: "fetch", payload: { kind: "tool", attempt: 1 } }),
      at(1, "run-1", { type: "node-retry-scheduled", nodeId: "fetch", payload: { attempt: 1, maxAttempts: 3, error: "no", errorKind: "unavailable", delayMs: 5000, retryAt: "x" } }),
      at(2, "run-1", { type: "node-failed", nodeId: "fetch", payload: { error: "The run was cancelled.", durationMs: 0, errorKind: "cancelled" } }),
    ]);
    expect(spans.map((span) => span.spanId)).toEqual([stepSpanId("run-1", "fetch", 1)]);
  });

  it("hang a run started with a caller's traceparent under the caller's span, and a child run under its parent step's span", () => {
    const caller = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const mapper = new RunSpanMapper();
    const [called] = mapper.spansOf(observedRun({ trigger: { kind: "webhook", nodeId: "hook", traceparent: caller } }), [
      at(1, "run-1", { type: "run-failed", nodeId: null, payload: { error: "no" } }),
    ]);
    expect(called).toMatchObject({ trace: { traceId: "0af7651916cd43dd8448eb211c80319c" }, parentSpanId: "b7ad6b7169203331", callerOutside: true, status: { code: "error", message: "no" } });

    const childTrigger: RunTrigger = { kind: "for-each", nodeId: null, traceparent: childTraceparent("run-1", { traceparent: caller }, "loop", 2) };
    const [child] = mapper.spansOf(observedRun({ runId: "run-2", trigger: childTrigger, loop: { nodeId: "loop", index: 4, count: 9, item: 1, nodes: {} } }), [
      at(2, "run-2", { type: "run-succeeded", nodeId: null, payload: { output: null } }),
    ]);
    expect(child).toMatchObject({ trace: { traceId: "0af7651916cd43dd8448eb211c80319c" }, spanId: runSpanId("run-2"), parentSpanId: stepSpanId("run-1", "loop", 2), callerOutside: false });
    expect(child!.attributes).toMatchObject({ "studio.loop.index": 4, "studio.loop.count": 9, "studio.run.trigger": "for-each" });
  });
});

describe("trace context", () => {
  it("reads a W3C traceparent, refusing malformed ones and all-zero ids", () => {
    expect(parseTraceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")).toEqual({
      traceId: "0af7651916cd43dd8448eb211c80319c",
      spanId: "b7ad6b7169203331",
      sampled: true,
    });
    expect(parseTraceparent("00-0AF7651916CD43DD8448EB211C80319C-B7AD6B7169203331-00")?.sampled).toBe(false);
    for (const bad of ["", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331", "00-00000000000000000000000000000000-b7ad6b7169203331-01", "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01", "zz-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"]) {
      expect(parseTraceparent(bad)).toBeNull();
    }
    expect(traceparentDetail(["00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"])).toEqual({});
    expect(traceparentDetail(undefined)).toEqual({});
  });

  it("puts an error workflow's run under the failed run's span, in its trace", () => {
    const caller = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00";
    expect(parseTraceparent(failedRunTraceparent("run-1", { traceparent: caller }))).toEqual({ traceId: "0af7651916cd43dd8448eb211c80319c", spanId: runSpanId("run-1"), sampled: false });
    expect(parseTraceparent(failedRunTraceparent("run-1", {}))).toEqual({ traceId: runTraceOf("run-1", {}).traceId, spanId: runSpanId("run-1"), sampled: true });
  });

  it("derives the same ids for the same run everywhere, and different ones for different runs", () => {
    expect(runTraceOf("run-1", {}).traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(runTraceOf("run-1", {})).toEqual(runTraceOf("run-1", {}));
    expect(runTraceOf("run-1", {}).traceId).not.toBe(runTraceOf("run-2", {}).traceId);
    expect(stepSpanId("run-1", "a", 1)).not.toBe(stepSpanId("run-1", "a", 2));
    expect(parseTraceparent(childTraceparent("run-1", {}, "a", 1))).toEqual({ traceId: runTraceOf("run-1", {}).traceId, spanId: stepSpanId("run-1", "a", 1), sampled: true });
  });
});

function sampleApproval() {
  const decided = sampleEvents("fetch").find((event) => event.type === "approval-decided")!;
  return { ...(decided.payload as { approval: object }).approval, status: "pending", decision: null, decidedBy: null, decidedAt: null } as never;
}
