import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small OTLP/HTTP trace receiver for tests: accepts `POST /v1/traces` in
 * the JSON protocol (OTEL_EXPORTER_OTLP_PROTOCOL=http/json), keeps every
 * span it is sent, decoded, and the raw bodies (to prove something is in no
 * span at all). Binds to 127.0.0.1 on a free port.
 */

export type AttributeValue = string | number | boolean | null | AttributeValue[];

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's numbers: 1 internal, 2 server, 3 client. */
  kind: number;
  startMs: number;
  endMs: number;
  attributes: Record<string, AttributeValue>;
  /** OTLP's numbers: 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string };
  links: { traceId: string; spanId: string; attributes: Record<string, AttributeValue> }[];
  resource: Record<string, AttributeValue>;
}

export interface OtlpReceiver {
  /** The base URL to give as OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  spans(): ReceivedSpan[];
  /** Every request body received, as text. */
  bodies(): string[];
  /** Resolves with the spans once `found` holds of them (polled as requests arrive), or rejects after `timeoutMs`. */
  waitFor(found: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}
interface OtlpAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: OtlpAnyValue[] };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: OtlpKeyValue[];
  status?: { code?: number; message?: string };
  links?: { traceId: string; spanId: string; attributes?: OtlpKeyValue[] }[];
}
interface OtlpRequest {
  resourceSpans?: { resource?: { attributes?: OtlpKeyValue[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

function valueOf(value: OtlpAnyValue): AttributeValue {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  return null;
}

function attributesOf(list: OtlpKeyValue[] | undefined): Record<string, AttributeValue> {
  return Object.fromEntries((list ?? []).map((pair) => [pair.key, valueOf(pair.value)]));
}

const millis = (nanos: string | number) => Number(BigInt(nanos) / 1_000_000n);

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const waiters = new Set<() => void>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== "/v1/traces") {
        response.writeHead(404).end();
        return;
      }
      const body = Buffer.concat(chunks).toString("utf8");
      let parsed: OtlpRequest;
      try {
        parsed = JSON.parse(body) as OtlpRequest;
      } catch {
        response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ message: "expected OTLP JSON" }));
        return;
      }
      bodies.push(body);
      for (const resourceSpans of parsed.resourceSpans ?? []) {
        const resource = attributesOf(resourceSpans.resource?.attributes);
        for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
          for (const span of scopeSpans.spans ?? []) {
            received.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? "",
              name: span.name,
              kind: span.kind,
              startMs: millis(span.startTimeUnixNano),
              endMs: millis(span.endTimeUnixNano),
              attributes: attributesOf(span.attributes),
              status: { code: span.status?.code ?? 0, message: span.status?.message ?? "" },
              links: (span.links ?? []).map((link) => ({ traceId: link.traceId, spanId: link.spanId, attributes: attributesOf(link.attributes) })),
              resource,
            });
          }
        }
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => [...received],
    bodies: () => [...bodies],
    waitFor: (found, timeoutMs = 30_000) =>
      new Promise<ReceivedSpan[]>((resolve, reject) => {
        const check = () => {
          if (!found(received)) return false;
          cleanUp();
          resolve([...received]);
          return true;
        };
        const timer = setTimeout(() => {
          cleanUp();
          reject(new Error(`The spans awaited did not arrive in ${timeoutMs} ms; received: ${received.map((span) => span.name).join(", ") || "none"}`));
        }, timeoutMs);
        const wake = () => void check();
        const cleanUp = () => {
          clearTimeout(timer);
          waiters.delete(wake);
        };
        waiters.add(wake);
        check();
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
