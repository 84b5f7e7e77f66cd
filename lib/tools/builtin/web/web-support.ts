import { z } from "zod";
import type { ToolErrorKind } from "../../tool-error";

/** True for an absolute http:// or https:// address. */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** An absolute http(s) address; other schemes (file:, data:, javascript:) are refused. */
export function httpUrl(description: string) {
  return z
    .string()
    .trim()
    .min(1, "give the address, e.g. https://example.com/page")
    .refine(isHttpUrl, "expected an absolute http:// or https:// address, e.g. https://example.com/page")
    .describe(description);
}

/** A request's own time limit joined with the run's cancellation. */
export function requestSignal(timeoutSeconds: number, cancel: AbortSignal): AbortSignal {
  return AbortSignal.any([AbortSignal.timeout(timeoutSeconds * 1000), cancel]);
}

/** Network error codes that a moment later may not happen again. */
const TRANSIENT_CODES: ReadonlySet<string> = new Set(["ECONNREFUSED", "EAI_AGAIN", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT"]);

/** Why a fetch failed, and what kind of failure it is (a time-out and a reset connection are worth trying again). */
export interface FetchFailure {
  message: string;
  kind: ToolErrorKind;
}

/**
 * Why a fetch failed, in words a model can act on: a time-out, a
 * cancellation, or the network's own reason (refused, unknown host, TLS).
 */
export function describeFetchFailure(error: unknown, target: string, timeoutSeconds: number, cancel: AbortSignal): FetchFailure {
  if (cancel.aborted) return { message: `The request to ${target} was cancelled.`, kind: "cancelled" };
  const name = error instanceof Error ? error.name : "";
  if (name === "TimeoutError" || name === "AbortError") {
    return { message: `${target} did not answer within ${timeoutSeconds} s. Try again later or allow more time with timeoutSeconds.`, kind: "timeout" };
  }
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === "string" ? cause.code : "";
  const reasons: Record<string, string> = {
    ECONNREFUSED: "the connection was refused (nothing is listening there)",
    ENOTFOUND: "the host name could not be found",
    EAI_AGAIN: "the host name could not be resolved right now",
    ECONNRESET: "the connection was reset",
    ETIMEDOUT: "the connection timed out",
    EHOSTUNREACH: "the host is unreachable",
  };
  const detail =
    reasons[code] ??
    (typeof cause?.message === "string" ? cause.message : error instanceof Error ? error.message : String(error));
  const kind: ToolErrorKind = TRANSIENT_CODES.has(code) ? "network" : code === "ENOTFOUND" ? "not-found" : "failed";
  return { message: `Could not reach ${target}: ${detail}.`, kind };
}

/** A body read up to `maxBytes`; the rest is left unread. */
export interface CappedBody {
  bytes: Uint8Array;
  /** True when the body was longer than `maxBytes`. */
  truncated: boolean;
}

/** Reads at most `maxBytes` of a response body, so a huge download cannot exhaust memory. */
export async function readCappedBody(response: Response, maxBytes: number): Promise<CappedBody> {
  if (!response.body) return { bytes: new Uint8Array(), truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > maxBytes) {
      truncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  const bytes = new Uint8Array(Math.min(size, maxBytes));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, Math.max(0, bytes.byteLength - offset));
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return { bytes, truncated };
}

/** Decodes with the charset the content type names, falling back to UTF-8. */
export function decodeText(bytes: Uint8Array, contentType: string | null): string {
  const charset = /charset="?([^";\s]+)"?/i.exec(contentType ?? "")?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}
