/**
 * OpenTelemetry traces of runs, exported over OTLP when an endpoint is set
 * (the standard OTEL_* variables; tracing-settings.ts). With none, `startRunTracing`
 * returns null before it loads a single OpenTelemetry module: nothing costs.
 *
 * The engine tells this, in the process that drove them, of each batch of
 * events it stored (RunEngineOptions.observer); run-spans.ts makes the spans
 * they finish, and each goes through the SDK's tracer (sampling, span limits,
 * resource) with its ids and times given: ids derived from the run so every
 * process agrees on them (trace-context.ts), times from the events. A batch
 * span processor exports them off the run's path.
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
 * Hands the tracer the ids of the span it is about to start: the tracer asks
 * its id generator, and the ids here are derived, not random. Set right before
 * each start, in the same turn, so nothing else can take them.
 */
class PlannedIds {
  private traceId: string | null = null;
  private spanId: string | null = null;

  plan(traceId: string, spanId: string): void {
    this.traceId = traceId;
    this.spanId = spanId;
  }

  generateTraceId(): string {
    const id = this.traceId;
    this.traceId = null;
    if (!id) throw new Error("A span's trace id was not planned");
    return id;
  }

  generateSpanId(): string {
    const id = this.spanId;
    this.spanId = null;
    if (!id) throw new Error("A span's id was not planned");
    return id;
  }
}

/**
 * Starts exporting runs' traces, or null when no OTLP endpoint is set (nothing is loaded then). Reads the process's
 * environment, as the exporter (endpoint, headers) and the resource (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES) do.
 */
export async function startRunTracing(log: (message: string, error?: unknown) => void): Promise<RunTracing | null> {
  const settings = readTracingSettings(process.env, (message) => log(message));
  if (!settings) return null;
  const [api, sdk, resources, exporters] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/resources"),
    settings.protocol === "http/json" ? import("@opentelemetry/exporter-trace-otlp-http") : import("@opentelemetry/exporter-trace-otlp-proto"),
  ]);
  // The SDK's own word (an export that failed, a full queue) goes to the studio's log, from OTEL_LOG_LEVEL up.
  const say = (message: string, ...args: unknown[]) => log(`OpenTelemetry: ${message}`, args[0]);
  api.diag.setLogger(
    { error: say, warn: say, info: say, debug: say, verbose: say },
    { logLevel: api.DiagLogLevel[settings.logLevel.toUpperCase() as keyof typeof api.DiagLogLevel], suppressOverrideMessage: true },
  );
  const ids = new PlannedIds();
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ "service.name": DEFAULT_SERVICE_NAME }))
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the default name.
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new sdk.TracerProvider({
    resource,
    idGenerator: ids,
    // Sampled here, by run (below), before a span is made: every span of a run goes or none does.
    sampler: new sdk.AlwaysOnSampler(),
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter: new exporters.OTLPTraceExporter(), ...settings.batch })],
  });
  const tracer = provider.getTracer("neurosurfer-studio.runs");
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

  const exportSpan = (span: SpanRecord) => {
    const { traceId } = span.trace;
    const parent = span.parentSpanId
      ? api.trace.setSpanContext(api.ROOT_CONTEXT, {
          traceId,
          spanId: span.parentSpanId,
          traceFlags: api.TraceFlags.SAMPLED,
          isRemote: span.parentSpanId === span.trace.parent?.spanId,
        })
      : api.ROOT_CONTEXT;
    ids.plan(traceId, span.spanId);
    const started = tracer.startSpan(
      span.name,
      {
        kind: span.kind === "client" ? api.SpanKind.CLIENT : api.SpanKind.INTERNAL,
        startTime: span.startTime,
        attributes: span.attributes,
        links: span.links.map((link) => ({ context: { traceId, spanId: link.spanId, traceFlags: api.TraceFlags.SAMPLED }, attributes: link.attributes })),
      },
      parent,
    );
    if (span.status.code !== "unset") {
      started.setStatus({
        code: span.status.code === "ok" ? api.SpanStatusCode.OK : api.SpanStatusCode.ERROR,
        ...(span.status.message ? { message: span.status.message.slice(0, STATUS_MESSAGE_LIMIT) } : {}),
      });
    }
    started.end(span.endTime);
  };

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
    flush: () => provider.forceFlush({ timeoutMillis: FLUSH_TIMEOUT_MS }).catch((error: unknown) => log("could not export the last spans", error)),
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
