/**
 * OpenTelemetry traces of runs, exported over OTLP when an endpoint is set
 * (the standard OTEL_* variables; tracing-settings.ts). With none, `startRunTracing`
 * returns null before it loads a single OpenTelemetry module: nothing costs.
 *
 * The engine tells this, in the process that drove them, of each batch of
 * events it stored (RunEngineOptions.observer); run-spans.ts makes the spans
 * they finish, each is sampled here (by run: every span of a run goes or none
 * does), and the sampled ones go to the export thread (span-export-thread.ts),
 * where the SDK's tracer (span limits, resource) makes them with their ids and
 * times given, ids derived from the run so every process agrees on them
 * (trace-context.ts), times from the events, and a batch span processor
 * exports them: none of the SDK's work is on the thread that serves requests.
 *
 * The SDK pieces are @opentelemetry/sdk-trace's TracerProvider and
 * BatchSpanProcessor with the OTLP/HTTP exporter (JSON or protobuf), not
 * @opentelemetry/sdk-node's NodeSDK: that one would also load every exporter
 * (gRPC among them), instrumentations and a global context manager into a
 * Next server, for spans this module makes by hand anyway.
 */
import type * as OpenTelemetryApi from "@opentelemetry/api";
import type { Sampler } from "@opentelemetry/sdk-trace";
import type { ObservedRun, RunObserver } from "@/lib/workflow/run-engine";
import type { RunEvent } from "@/lib/contracts/run-event";
import { RunSpanMapper, type SpanRecord } from "./run-spans";
import { SpanExportThread } from "./span-export-thread";
import { readTracingSettings, type SamplerSetting } from "./tracing-settings";

/** The name traces carry when OTEL_SERVICE_NAME does not say otherwise. */
export const DEFAULT_SERVICE_NAME = "neurosurfer-studio";

/** How long a shutdown waits for the last spans to be exported. */
const FLUSH_TIMEOUT_MS = 5_000;

/** Longer error texts are cut in a span's status. */
const STATUS_MESSAGE_LIMIT = 2_000;

export interface RunTracing extends RunObserver {
  /** Exports what is batched now (a shutdown's last word); never rejects (a failure is logged). */
  flush(): Promise<void>;
}

/**
 * Starts exporting runs' traces, or null when no OTLP endpoint is set (nothing is loaded then). Reads the process's
 * environment, as the exporter (endpoint, headers) and the resource (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES) do.
 */
export async function startRunTracing(log: (message: string, error?: unknown) => void): Promise<RunTracing | null> {
  const settings = readTracingSettings(process.env, (message) => log(message));
  if (!settings) return null;
  // Only what sampling needs is loaded here; the SDK's tracer, batch and exporter run on the export thread.
  const [api, sdk] = await Promise.all([import("@opentelemetry/api"), import("@opentelemetry/sdk-trace")]);
  const thread = new SpanExportThread(settings, DEFAULT_SERVICE_NAME, log);
  const { sampler, root } = samplersOf(sdk, settings.sampler);
  const mapper = new RunSpanMapper();

  const sampled = (span: SpanRecord): boolean => {
    const { trace } = span;
    const wanted = (deciding: Sampler, context: OpenTelemetryApi.Context) =>
      deciding.shouldSample(context, trace.traceId, span.name, api.SpanKind.INTERNAL, {}, []).decision === api.SamplingDecision.RECORD_AND_SAMPLED;
    // A child run's parent is a run of this studio: it goes with the trace's root decision (a ratio decides by trace id alike in every process).
    if (trace.parent && !span.callerOutside) return trace.parent.sampled && wanted(root, api.ROOT_CONTEXT);
    const context = trace.parent
      ? api.trace.setSpanContext(api.ROOT_CONTEXT, {
          traceId: trace.traceId,
          spanId: trace.parent.spanId,
          traceFlags: trace.parent.sampled ? api.TraceFlags.SAMPLED : api.TraceFlags.NONE,
          isRemote: true,
        })
      : api.ROOT_CONTEXT;
    return wanted(sampler, context);
  };

  const exportSpan = (span: SpanRecord) =>
    thread.export({
      name: span.name,
      kind: span.kind,
      traceId: span.trace.traceId,
      spanId: span.spanId,
      parentSpanId: span.parentSpanId,
      parentIsRemote: span.parentSpanId !== null && span.parentSpanId === span.trace.parent?.spanId,
      startTime: span.startTime,
      endTime: span.endTime,
      attributes: span.attributes,
      status: span.status.message ? { code: span.status.code, message: span.status.message.slice(0, STATUS_MESSAGE_LIMIT) } : { code: span.status.code },
      links: span.links,
    });

  return {
    observe(run: ObservedRun, events: readonly RunEvent[]): void {
      for (const span of mapper.spansOf(run, events)) {
        try {
          if (sampled(span)) exportSpan(span);
        } catch (error) {
          log(`could not trace ${span.name} of run ${run.runId}`, error);
        }
      }
    },
    // Bounded: a collector that does not answer must not hold a shutdown for the exporter's 30 s.
    flush: () => thread.flush(FLUSH_TIMEOUT_MS),
  };
}

/** The configured sampler, and the one it applies to a trace's root (itself, unless it defers to a parent). */
function samplersOf(sdk: typeof import("@opentelemetry/sdk-trace"), setting: SamplerSetting): { sampler: Sampler; root: Sampler } {
  switch (setting.kind) {
    case "always_on":
      return same(new sdk.AlwaysOnSampler());
    case "always_off":
      return same(new sdk.AlwaysOffSampler());
    case "traceidratio":
      return same(new sdk.TraceIdRatioBasedSampler(setting.ratio));
    case "parentbased_always_on":
      return parentBased(sdk, new sdk.AlwaysOnSampler());
    case "parentbased_always_off":
      return parentBased(sdk, new sdk.AlwaysOffSampler());
    case "parentbased_traceidratio":
      return parentBased(sdk, new sdk.TraceIdRatioBasedSampler(setting.ratio));
  }
}

function same(sampler: Sampler): { sampler: Sampler; root: Sampler } {
  return { sampler, root: sampler };
}

function parentBased(sdk: typeof import("@opentelemetry/sdk-trace"), root: Sampler): { sampler: Sampler; root: Sampler } {
  return { sampler: new sdk.ParentBasedSampler({ root }), root };
}
