import type { IncomingMessage, ServerResponse } from "node:http";
import { securityHeaders } from "../access/security-headers";
import { OPEN_SSE_DIRECTLY, type DirectSse } from "../event-stream";

/**
 * Node's request and response to the Web `Request` and `Response` a route
 * handler takes and gives, for the routes served past Next's routing
 * (./dispatch.ts). The handler is the very function Next calls for the same
 * route; only the transport differs, so what a client sees must not: the
 * same status, headers, body and streaming, with the security headers the
 * door (proxy.ts) adds to every answer.
 */

/**
 * A Web request for `request`, its body read already (`body`, at most what the
 * handler's own limit lets through plus one byte, so the handler still refuses
 * an oversized one). `signal` aborts when the client goes away.
 */
export function webRequestOf(request: IncomingMessage, body: Uint8Array | null, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else headers.set(name, value);
  }
  // The Host header was checked to be a plain host[:port] by the caller; the handler reads the address's scheme and host.
  return new Request(`http://${request.headers.host}${request.url}`, {
    method: request.method,
    headers,
    signal,
    ...(body ? { body, duplex: "half" } : {}),
  } as RequestInit);
}

/** Reads the body of `request`: all of it (`complete`), or, once it passes `limit`, the first `limit` + 1 bytes, the rest left unread. */
export function readNodeBody(request: IncomingMessage, limit: number): Promise<{ bytes: Buffer; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      chunks.push(chunk);
      if (size > limit) {
        request.off("data", onData);
        request.pause();
        resolve({ bytes: Buffer.concat(chunks).subarray(0, limit + 1), complete: false });
      }
    };
    request.on("data", onData);
    request.once("end", () => resolve({ bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), complete: true }));
    request.once("error", reject);
  });
}

/** Past this much discarded body a sender is cut off after all: nobody needs more read to learn of a 413. */
export const DISCARD_LIMIT_BYTES = 32 * 1024 * 1024;

/**
 * Reads what is left of `request`'s body and drops it, so the connection ends
 * its request cleanly and stays usable; a body going on past `limit` more
 * bytes is cut off (the client then sees a reset, as it would from a server
 * that read nothing).
 */
export function discardRestOfBody(request: IncomingMessage, limit: number): void {
  let discarded = 0;
  request.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limit) request.destroy();
  });
  request.resume();
}

/**
 * Sends `answer` on `response`: an event stream (made by `sseResponse`, the
 * only kind the direct routes answer with) written straight to the socket as
 * it comes, anything else in one write with its length. `signal` aborts when
 * the client goes away.
 */
export async function sendWebResponse(answer: Response, response: ServerResponse, signal: AbortSignal): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  answer.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = answer.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  Object.assign(headers, securityHeaders());
  const stream = (answer as { [OPEN_SSE_DIRECTLY]?: DirectSse })[OPEN_SSE_DIRECTLY];
  if (!stream) {
    const bytes = answer.body ? Buffer.from(await answer.arrayBuffer()) : Buffer.alloc(0);
    headers["content-length"] = String(bytes.length);
    response.writeHead(answer.status, headers);
    response.end(bytes);
    return;
  }
  response.writeHead(answer.status, headers);
  // Headers go out at once: a client waiting on an event stream learns it is open before the first event.
  response.flushHeaders();
  // The stream's text goes straight to the socket: no Web stream, no encoding to bytes and back, per event.
  await answer.body?.cancel();
  await new Promise<void>((resolve) => {
    const stop = stream(
      {
        write: (chunk) => void response.write(chunk),
        end: () => response.end(),
        // What Node holds for a client that reads slowly or not at all: the stream waits, or lets it go (openSse).
        backlog: () => response.writableLength,
        backedUp: () => response.writableNeedDrain,
        onDrain: (listener) => {
          response.once("drain", listener);
          return () => response.off("drain", listener);
        },
      },
      signal,
    );
    const stopped = () => {
      stop();
      resolve();
    };
    if (response.closed) stopped();
    else response.once("close", stopped);
  });
}
