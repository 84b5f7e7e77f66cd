import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NewRunEvent, RunEvent } from "@/lib/contracts/run-event";
import type { WorkflowDefinition } from "@/lib/workflow/definition";
import type { ObservedRun } from "@/lib/workflow/run-engine";
import { startOtlpReceiver, type OtlpReceiver } from "@/tests/support/otlp-receiver";
import { startRunTracing } from "./run-tracing";
import { runSpanId, runTraceOf, stepSpanId } from "./trace-context";
import { readTracingSettings } from "./tracing-settings";

/** Through the real SDK and OTLP/JSON exporter to a receiver on loopback; no studio. */

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver.close());

const definition = { mode: "auto", onError: "stop", nodes: [{ id: "list", kind: "tool", tool: "list_dir", settings: {}, arguments: {} }], edges: [] } as unknown as WorkflowDefinition;

function observedRun(runId: string, trigger: ObservedRun["trigger"]): ObservedRun {
  return { runId, workflowId: "wf-1", version: 1, startedAt: new Date().toISOString(), trigger, inputs: {}, definition, loop: null, attempts: { list: 1 }, stepsStartedAt: new Map() };
}

let seq = 0;
const event = (runId: string, body: NewRunEvent): RunEvent => ({ ...body, runId, seq: ++seq, createdAt: new Date().toISOString() }) as RunEvent;

function runEvents(runId: string): RunEvent[] {
  return [
    event(runId, { type: "run-started", nodeId: null, payload: { inputs: {} } }),
    event(runId, { type: "node-started", nodeId: "list", payload: { kind: "tool", attempt: 1, tool: "list_dir" } }),
    event(runId, { type: "node-succeeded", nodeId: "list", payload: { output: { content: "" }, durationMs: 1 } }),
    event(runId, { type: "run-succeeded", nodeId: null, payload: { output: null } }),
  ];
}

/** Starts tracing with the process's environment set so, as the studio does at boot (the exporter reads it too). */
async function startWith(extra: Record<string, string> = {}) {
  const variables: Record<string, string> = {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_BSP_SCHEDULE_DELAY: "50",
    OTEL_SERVICE_NAME: "studio-under-test",
    ...extra,
  };
  const before = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
  Object.assign(process.env, variables);
  try {
    const tracing = await startRunTracing(() => undefined);
    if (!tracing) throw new Error("tracing did not start");
    return tracing;
  } finally {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

describe("run tracing over OTLP", () => {
  it("exports a run's spans with the derived ids, the service's name and the caller's trace", async () => {
    const tracing = await startWith();
    const caller = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    tracing.observe(observedRun("run-a", { kind: "person", nodeId: null, traceparent: caller }), runEvents("run-a"));
    const spans = await receiver.waitFor((all) => all.some((span) => span.spanId === runSpanId("run-a")));
    const root = spans.find((span) => span.spanId === runSpanId("run-a"))!;
    const step = spans.find((span) => span.spanId === stepSpanId("run-a", "list", 1))!;
    expect(root).toMatchObject({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", parentSpanId: "00f067aa0ba902b7", name: "run wf-1", status: { code: 1 } });
    expect(root.resource["service.name"]).toBe("studio-under-test");
    expect(step).toMatchObject({ traceId: root.traceId, parentSpanId: root.spanId, name: "step list" });
    expect(step.attributes).toMatchObject({ "studio.tool.name": "list_dir", "studio.step.status": "succeeded" });
    await tracing.flush();
  });

  it("export nothing of a run whose caller did not sample it, nor of any run with the sampler off", async () => {
    const tracing = await startWith();
    tracing.observe(observedRun("run-b", { kind: "person", nodeId: null, traceparent: "00-5bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00" }), runEvents("run-b"));
    const off = await startWith({ OTEL_TRACES_SAMPLER: "always_off" });
    off.observe(observedRun("run-c", { kind: "person", nodeId: null }), runEvents("run-c"));
    // A run observed after them arrives: had theirs been sent, they would have been sent before it.
    tracing.observe(observedRun("run-d", { kind: "person", nodeId: null }), runEvents("run-d"));
    await Promise.all([tracing.flush(), off.flush()]);
    await receiver.waitFor((all) => all.some((span) => span.spanId === runSpanId("run-d")));
    const traces = new Set(receiver.spans().map((span) => span.traceId));
    expect(traces.has("5bf92f3577b34da6a3ce929d0e0e4736")).toBe(false);
    expect(traces.has(runTraceOf("run-c", {}).traceId)).toBe(false);
    expect(traces.has(runTraceOf("run-d", {}).traceId)).toBe(true);
  });
});

describe("the export thread", () => {
  it("says in the studio's log that a collector refused the last spans, and the flush still ends", async () => {
    const said: { message: string; error: unknown }[] = [];
    const before = { ...process.env };
    Object.assign(process.env, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_BSP_EXPORT_TIMEOUT: "2000" });
    let tracing: Awaited<ReturnType<typeof startRunTracing>>;
    try {
      tracing = await startRunTracing((message, error) => said.push({ message, error }));
    } finally {
      process.env = before;
    }
    tracing!.observe(observedRun("run-e", { kind: "person", nodeId: null }), runEvents("run-e"));
    await tracing!.flush();
    // The SDK's reason, when it gives one (a time-out here), else a word of the thread's own.
    expect(said).toContainEqual({ message: "could not export the last spans", error: expect.stringMatching(/Timeout|did not take them/) });
  });
});

describe("tracing settings", () => {
  it("are off without an OTLP endpoint, when the SDK is disabled, or with the exporter none", () => {
    const warn = () => undefined;
    expect(readTracingSettings({}, warn)).toBeNull();
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: " " }, warn)).toBeNull();
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" }, warn)).toBeNull();
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces", OTEL_TRACES_EXPORTER: "none" }, warn)).toBeNull();
  });

  it("read the protocol, sampler and batch schedule, leaving a value that does not parse at its default with a warning", () => {
    const warnings: string[] = [];
    const settings = readTracingSettings(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json",
        OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
        OTEL_TRACES_SAMPLER_ARG: "0.25",
        OTEL_BSP_SCHEDULE_DELAY: "200",
        OTEL_BSP_MAX_QUEUE_SIZE: "soon",
      },
      (message) => warnings.push(message),
    );
    expect(settings).toEqual({ protocol: "http/json", logLevel: "error", sampler: { kind: "parentbased_traceidratio", ratio: 0.25 }, batch: { scheduledDelayMillis: 200 } });
    expect(warnings).toEqual(["OTEL_BSP_MAX_QUEUE_SIZE=soon is not valid; using its default"]);
    const defaults = readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, (message) => warnings.push(message));
    expect(defaults).toEqual({ protocol: "http/protobuf", logLevel: "error", sampler: { kind: "parentbased_always_on" }, batch: {} });
    expect(warnings.at(-1)).toContain("grpc is not offered");
  });
});
