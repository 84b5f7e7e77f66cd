import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { TracingSettings } from "./tracing-settings";

/*
 * The OpenTelemetry SDK's half of tracing, on a thread of its own: making the
 * SDK's span objects, batching them, turning them into OTLP (protobuf or JSON)
 * and sending them cost the thread that serves HTTP about half of what tracing
 * cost it (bench/http.bench.ts with BENCH_OTLP). The serving thread keeps the
 * cheap half: working out each span from the run's events and sampling it
 * (run-tracing.ts); it posts the sampled spans here as plain records, a batch
 * per turn of its event loop.
 *
 * The thread's program is text run with `eval`, as sqlite-writer.ts's is (no
 * file of its own has to survive the Next build); the SDK's packages are
 * resolved here and required there by their paths. It reads the OTEL_*
 * variables itself (the exporter's endpoint, headers, timeout; the resource's
 * service name), from the copy of the environment a thread starts with.
 */

/** A span as the thread receives it: ids, times and what it carries, decided already (sampled, masked, cut). */
export interface ExportedSpan {
  name: string;
  kind: "internal" | "client";
  traceId: string;
  spanId: string;
  /** Null: the root of its trace. */
  parentSpanId: string | null;
  /** The parent is the caller's span (a traceparent from outside this trace's runs), not one of the studio's. */
  parentIsRemote: boolean;
  startTime: number;
  endTime: number;
  attributes: Record<string, string | number | boolean | string[]>;
  status: { code: "ok" | "error" | "unset"; message?: string };
  links: { spanId: string; attributes: Record<string, string | number | boolean | string[]> }[];
}

type ToThread = { spans: ExportedSpan[] } | { flush: number; timeoutMs: number };
type FromThread = { log: string; detail?: string } | { flushed: number; error?: string };

const THREAD = String.raw`
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const api = require(workerData.modules.api);
const sdk = require(workerData.modules.sdk);
const resources = require(workerData.modules.resources);
const exporters = require(workerData.modules.exporter);
const detail = (value) => (value === undefined ? undefined : String((value && value.stack) || value));
const say = (message, ...args) => parentPort.postMessage({ log: "OpenTelemetry: " + message, detail: detail(args[0]) });
api.diag.setLogger({ error: say, warn: say, info: say, debug: say, verbose: say }, { logLevel: api.DiagLogLevel[workerData.logLevel], suppressOverrideMessage: true });
// The tracer asks its id generator for the ids of the span it starts: the ids planned right before, derived from the run.
let plannedTrace = null;
let plannedSpan = null;
const ids = {
  generateTraceId() { const id = plannedTrace; plannedTrace = null; if (!id) throw new Error("A span's trace id was not planned"); return id; },
  generateSpanId() { const id = plannedSpan; plannedSpan = null; if (!id) throw new Error("A span's id was not planned"); return id; },
};
const resource = resources
  .defaultResource()
  .merge(resources.resourceFromAttributes({ "service.name": workerData.defaultServiceName }))
  .merge(resources.detectResources({ detectors: [resources.envDetector] }));
const provider = new sdk.TracerProvider({
  resource,
  idGenerator: ids,
  // Sampled by the serving thread already: every span posted here goes.
  sampler: new sdk.AlwaysOnSampler(),
  spanProcessors: [new sdk.BatchSpanProcessor({ exporter: new exporters.OTLPTraceExporter(), ...workerData.batch })],
});
const tracer = provider.getTracer("neurosurfer-studio.runs");
const sampled = api.TraceFlags.SAMPLED;
function exportSpan(span) {
  const parent = span.parentSpanId
    ? api.trace.setSpanContext(api.ROOT_CONTEXT, { traceId: span.traceId, spanId: span.parentSpanId, traceFlags: sampled, isRemote: span.parentIsRemote })
    : api.ROOT_CONTEXT;
  plannedTrace = span.traceId;
  plannedSpan = span.spanId;
  const started = tracer.startSpan(
    span.name,
    {
      kind: span.kind === "client" ? api.SpanKind.CLIENT : api.SpanKind.INTERNAL,
      startTime: span.startTime,
      attributes: span.attributes,
      links: span.links.map((link) => ({ context: { traceId: span.traceId, spanId: link.spanId, traceFlags: sampled }, attributes: link.attributes })),
    },
    parent,
  );
  if (span.status.code !== "unset") {
    started.setStatus({ code: span.status.code === "ok" ? api.SpanStatusCode.OK : api.SpanStatusCode.ERROR, ...(span.status.message ? { message: span.status.message } : {}) });
  }
  started.end(span.endTime);
}
parentPort.on("message", (message) => {
  if (message.spans) {
    for (const span of message.spans) {
      try {
        exportSpan(span);
      } catch (error) {
        parentPort.postMessage({ log: "could not trace " + span.name, detail: detail(error) });
      }
    }
    return;
  }
  provider.forceFlush({ timeoutMillis: message.timeoutMs }).then(
    () => parentPort.postMessage({ flushed: message.flush }),
    // The SDK rejects a failed export with no reason at all: say that it failed.
    (error) => parentPort.postMessage({ flushed: message.flush, error: detail(error) || "the collector did not take them" }),
  );
});
`;

/** The SDK packages the thread requires, resolved from the project's node_modules as the studio's own imports are. */
function sdkModules(protocol: TracingSettings["protocol"]): Record<"api" | "sdk" | "resources" | "exporter", string> {
  const resolve = createRequire(path.join(process.cwd(), "noop.js")).resolve;
  return {
    api: resolve("@opentelemetry/api"),
    sdk: resolve("@opentelemetry/sdk-trace"),
    resources: resolve("@opentelemetry/resources"),
    exporter: resolve(protocol === "http/json" ? "@opentelemetry/exporter-trace-otlp-http" : "@opentelemetry/exporter-trace-otlp-proto"),
  };
}

export class SpanExportThread {
  private readonly worker: Worker;
  private pending: ExportedSpan[] = [];
  private postScheduled = false;
  private alive = true;
  private nextFlush = 1;
  private readonly flushes = new Map<number, () => void>();

  constructor(
    settings: TracingSettings,
    defaultServiceName: string,
    private readonly log: (message: string, error?: unknown) => void,
  ) {
    this.worker = new Worker(THREAD, {
      eval: true,
      workerData: { modules: sdkModules(settings.protocol), logLevel: settings.logLevel.toUpperCase(), batch: settings.batch, defaultServiceName },
    });
    // It never keeps the process alive: a shutdown flushes it first (flush), then lets it go.
    this.worker.unref();
    this.worker.on("message", (message: FromThread) => {
      if ("log" in message) log(message.log, message.detail);
      else this.flushed(message.flushed, message.error);
    });
    const lost = (error: unknown) => {
      if (!this.alive) return;
      this.alive = false;
      log("the tracing thread stopped; runs are no longer traced", error);
      for (const done of this.flushes.values()) done();
      this.flushes.clear();
    };
    this.worker.on("error", lost);
    this.worker.on("exit", (code) => lost(`exit code ${code}`));
  }

  /** Takes a span to export; spans given in one turn of the event loop go to the thread in one message. */
  export(span: ExportedSpan): void {
    if (!this.alive) return;
    this.pending.push(span);
    if (this.postScheduled) return;
    this.postScheduled = true;
    setImmediate(() => this.post());
  }

  /** Exports what is batched, here and in the thread, within `timeoutMs`; never rejects (a failure is logged). */
  flush(timeoutMs: number): Promise<void> {
    this.post();
    if (!this.alive) return Promise.resolve();
    const id = this.nextFlush++;
    return new Promise<void>((resolve) => {
      // The thread bounds its export by timeoutMs; this bounds a thread that does not answer at all.
      const timer = setTimeout(() => this.flushed(id, "the tracing thread did not answer"), timeoutMs + 1_000);
      this.flushes.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
      this.send({ flush: id, timeoutMs });
    });
  }

  private post(): void {
    this.postScheduled = false;
    if (this.pending.length === 0 || !this.alive) return;
    const spans = this.pending;
    this.pending = [];
    this.send({ spans });
  }

  private send(message: ToThread): void {
    try {
      this.worker.postMessage(message);
    } catch (error) {
      this.log("could not hand spans to the tracing thread", error);
    }
  }

  private flushed(id: number, error?: string): void {
    if (error) this.log("could not export the last spans", error);
    const done = this.flushes.get(id);
    this.flushes.delete(id);
    done?.();
  }
}
