import { RunEventSchema } from "@/lib/contracts/run-event";
import { takeSseBlocks } from "@/lib/format/sse-block";
import { credentialHeaders, type Credential } from "./credential";

/**
 * A tiny Server-Sent Events client over fetch: it parses the wire format
 * (id, event, data, comments, retry) and hands each message to the test in
 * order, so a test can read some events, disconnect, and reconnect with
 * Last-Event-ID as a browser's EventSource would.
 */

export interface SseMessage {
  /** The `id:` field, when the message had one. */
  id: string | null;
  /** The `event:` field; `message` when absent, as in the browser. */
  event: string;
  data: string;
}

export interface SseConnection {
  status: number;
  headers: Headers;
  /** The next message, or null when the stream has ended. Fails after `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseMessage | null>;
  /** Every message until the stream ends (or `timeoutMs` passes, which fails). */
  rest(timeoutMs?: number): Promise<SseMessage[]>;
  close(): void;
}

export async function connectEventStream(
  url: string,
  options: Credential & { lastEventId?: number | string } = {},
): Promise<SseConnection> {
  const abort = new AbortController();
  const headers: Record<string, string> = { accept: "text/event-stream", ...credentialHeaders(options) };
  if (options.lastEventId !== undefined) headers["last-event-id"] = String(options.lastEventId);
  const response = await fetch(url, { headers, signal: abort.signal });
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  const queue: SseMessage[] = [];
  let buffer = "";
  let ended = !reader;

  const parseBlocks = () => {
    const { blocks, rest } = takeSseBlocks(buffer);
    buffer = rest;
    for (const { id, event, data, dispatches } of blocks) if (dispatches) queue.push({ id, event, data });
  };

  const next = async (timeoutMs = 15_000): Promise<SseMessage | null> => {
    const deadline = Date.now() + timeoutMs;
    while (queue.length === 0) {
      if (ended) return null;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`No event from ${url} within ${timeoutMs} ms.`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), remaining)));
      const chunk = await Promise.race([reader!.read(), timeout]).finally(() => clearTimeout(timer));
      if (chunk === "timeout") throw new Error(`No event from ${url} within ${timeoutMs} ms.`);
      if (chunk.done) {
        ended = true;
        buffer += decoder.decode();
      } else {
        buffer += decoder.decode(chunk.value, { stream: true });
      }
      parseBlocks();
    }
    return queue.shift()!;
  };

  return {
    status: response.status,
    headers: response.headers,
    next,
    async rest(timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      const messages: SseMessage[] = [];
      for (;;) {
        const message = await next(Math.max(1, deadline - Date.now()));
        if (message === null) return messages;
        messages.push(message);
      }
    },
    close() {
      ended = true;
      abort.abort();
      reader?.cancel().catch(() => undefined);
    },
  };
}

/** A run event as the stream carries it. */
/** The stream's next message that `wanted` accepts (others are passed over); fails when the stream ends first. */
export async function nextMessage(stream: SseConnection, wanted: (message: SseMessage) => boolean): Promise<SseMessage> {
  for (;;) {
    const message = await stream.next(15_000);
    if (message === null) throw new Error("The stream ended before the message it waited for.");
    if (wanted(message)) return message;
  }
}

export interface RunEventJson {
  runId: string;
  seq: number;
  type: string;
  nodeId: string | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  payload: Record<string, any>;
  createdAt: string;
}

/** The run events in `messages` (those with an id), parsed. */
export function runEventsOf(messages: SseMessage[]): RunEventJson[] {
  return messages.filter((message) => message.id !== null).map((message) => {
    // Every streamed event must be one the contract describes: a type it knows, a payload of that type's shape.
    const event = RunEventSchema.safeParse(JSON.parse(message.data));
    if (!event.success) throw new Error(`The stream sent an event outside the contract (${message.event}): ${event.error.message}\n${message.data.slice(0, 2000)}`);
    return event.data as RunEventJson;
  });
}
