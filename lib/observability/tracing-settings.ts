/**
 * Whether and how runs are traced, from the standard OpenTelemetry
 * environment variables. The OTLP exporter reads its own (endpoint, headers,
 * timeout, compression, certificates); this reads the rest the way the
 * OpenTelemetry SDK for Node does: whether tracing is on at all, the protocol,
 * the sampler and the batch processor's schedule. A value that does not parse
 * is left at its default with a warning, as the specification asks, rather
 * than stopping the studio. Pure: loads nothing.
 */
import { z } from "zod";

export type TracingProtocol = "http/protobuf" | "http/json";

export type SamplerSetting =
  | { kind: "always_on" | "always_off" | "parentbased_always_on" | "parentbased_always_off" }
  | { kind: "traceidratio" | "parentbased_traceidratio"; ratio: number };

/** OTEL_LOG_LEVEL: what of the SDK's own diagnostics reach the studio's log (failed exports are errors). */
export const LOG_LEVELS = ["none", "error", "warn", "info", "debug", "verbose", "all"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface TracingSettings {
  protocol: TracingProtocol;
  logLevel: LogLevel;
  sampler: SamplerSetting;
  batch: { scheduledDelayMillis?: number; exportTimeoutMillis?: number; maxQueueSize?: number; maxExportBatchSize?: number };
}

const SAMPLERS = ["always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio"] as const;

const NonNegativeInteger = z.coerce.number().int().nonnegative();
const Ratio = z.coerce.number().min(0).max(1);

/**
 * The settings, or null when nothing is to be exported: no OTLP endpoint set
 * (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT),
 * OTEL_SDK_DISABLED=true, or OTEL_TRACES_EXPORTER=none. `warn` hears each
 * value left at its default.
 */
export function readTracingSettings(environment: Readonly<Record<string, string | undefined>>, warn: (message: string) => void): TracingSettings | null {
  const value = (name: string) => {
    const raw = environment[name]?.trim();
    return raw ? raw : undefined;
  };
  if (!value("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") && !value("OTEL_EXPORTER_OTLP_ENDPOINT")) return null;
  if (value("OTEL_SDK_DISABLED")?.toLowerCase() === "true") return null;
  const exporters = (value("OTEL_TRACES_EXPORTER") ?? "otlp").toLowerCase().split(",").map((each) => each.trim());
  if (exporters.includes("none")) return null;
  if (!exporters.includes("otlp")) warn(`OTEL_TRACES_EXPORTER=${exporters.join(",")}: only otlp is offered; exporting over OTLP`);

  const protocolName = value("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") ?? value("OTEL_EXPORTER_OTLP_PROTOCOL") ?? "http/protobuf";
  let protocol: TracingProtocol = "http/protobuf";
  if (protocolName === "http/json" || protocolName === "http/protobuf") protocol = protocolName;
  else warn(`OTLP protocol ${protocolName} is not offered (http/protobuf or http/json); using http/protobuf`);

  const number = (name: string, schema: z.ZodType<number>): number | undefined => {
    const raw = value(name);
    if (raw === undefined) return undefined;
    const parsed = schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    warn(`${name}=${raw} is not valid; using its default`);
    return undefined;
  };
  const batch: TracingSettings["batch"] = {};
  const delay = number("OTEL_BSP_SCHEDULE_DELAY", NonNegativeInteger);
  const timeout = number("OTEL_BSP_EXPORT_TIMEOUT", NonNegativeInteger);
  const queue = number("OTEL_BSP_MAX_QUEUE_SIZE", NonNegativeInteger);
  const size = number("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", NonNegativeInteger);
  if (delay !== undefined) batch.scheduledDelayMillis = delay;
  if (timeout !== undefined) batch.exportTimeoutMillis = timeout;
  if (queue !== undefined) batch.maxQueueSize = queue;
  if (size !== undefined) batch.maxExportBatchSize = queue !== undefined ? Math.min(size, queue) : size;

  const samplerName = value("OTEL_TRACES_SAMPLER") ?? "parentbased_always_on";
  let sampler: SamplerSetting = { kind: "parentbased_always_on" };
  if ((SAMPLERS as readonly string[]).includes(samplerName)) {
    const kind = samplerName as (typeof SAMPLERS)[number];
    if (kind === "traceidratio" || kind === "parentbased_traceidratio") sampler = { kind, ratio: number("OTEL_TRACES_SAMPLER_ARG", Ratio) ?? 1 };
    else sampler = { kind };
  } else {
    warn(`OTEL_TRACES_SAMPLER=${samplerName} is not offered (${SAMPLERS.join(", ")}); using parentbased_always_on`);
  }
  const levelName = (value("OTEL_LOG_LEVEL") ?? "error").toLowerCase();
  let logLevel: LogLevel = "error";
  if ((LOG_LEVELS as readonly string[]).includes(levelName)) logLevel = levelName as LogLevel;
  else warn(`OTEL_LOG_LEVEL=${levelName} is not offered (${LOG_LEVELS.join(", ")}); using error`);
  return { protocol, logLevel, sampler, batch };
}
