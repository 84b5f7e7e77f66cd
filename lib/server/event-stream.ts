import { RUN_ENDING_EVENT_TYPES } from "@/lib/contracts/run-event";
import type { EventText } from "@/lib/persistence/run-queries";
import type { RunEvent, RunEventType } from "@/lib/workflow/run-types";

const encoder = new TextEncoder();
/** Comments keep proxies and browsers from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

/** One event in the SSE wire format, its sequence number as the id. */
export function formatEvent(event: RunEvent): string {
  return formatEventText({ seq: event.seq, type: event.type, json: JSON.stringify(event) });
}

/** A stored event, already JSON (`readEventTexts`), in the SSE wire format. */
export function formatEventText(event: EventText): string {
  return `id: ${event.seq}\nevent: ${event.type}\ndata: ${event.json}\n\n`;
}

export interface EventSource {
  /** Subscribes to live events; returns the unsubscribe function. */
  subscribe(listener: (event: RunEvent) => void): () => void;
  /** Stored events after `afterSeq` as JSON text, in order, at most `limit`. */
  read(afterSeq: number, limit: number): Promise<EventText[]>;
  /** Whether the run has finished (its last event is stored). */
  isFinished(): Promise<boolean>;
}

const PAGE = 500;

/** The writing end of one Server-Sent Events response. */
export interface SseChannel {
  /** Writes raw SSE text (one or more complete messages); ignored once closed. */
  write(text: string): void;
  /** Writes one named event with JSON data. */
  send(type: string, data: unknown): void;
  close(): void;
  /** Runs `cleanup` when the stream ends, whoever ends it (us, the client, an error). */
  onClose(cleanup: () => void): void;
  readonly closed: boolean;
}

/** Where a channel's text goes: a Web stream (Next's routes) or Node's response itself (lib/server/direct). */
export interface SseSink {
  write(text: string): void;
  /** Ends the stream; `error` when opening it failed. */
  end(error?: unknown): void;
}

type SseOpen = (channel: SseChannel) => Promise<void> | void;

/**
 * Opens a stream on `sink`: `open` writes through the channel; this owns the
 * rest: the heartbeat that keeps idle streams open, and cleaning up once,
 * whether the stream is closed here or the client goes away (`signal`). The
 * returned function ends it from the sink's side (the client went away).
 */
export function openSse(sink: SseSink, signal: AbortSignal, open: SseOpen): () => void {
  const cleanups: (() => void)[] = [];
  let closed = false;
  const finish = (error?: unknown) => {
    if (closed) return;
    closed = true;
    for (const cleanup of cleanups.splice(0)) cleanup();
    sink.end(error);
  };
  const channel: SseChannel = {
    write: (text) => {
      if (!closed) sink.write(text);
    },
    send: (type, data) => channel.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`),
    close: () => finish(),
    onClose: (cleanup) => {
      if (closed) cleanup();
      else cleanups.push(cleanup);
    },
    get closed() {
      return closed;
    },
  };
  // Gone already (while the handler read what to stream): nothing to open.
  if (signal.aborted) {
    finish();
    return () => undefined;
  }
  signal.addEventListener("abort", () => finish(), { once: true });
  const heartbeat = setInterval(() => channel.write(`: keep-alive\n\n`), HEARTBEAT_MS);
  channel.onClose(() => clearInterval(heartbeat));
  Promise.resolve()
    .then(() => open(channel))
    .catch((error: unknown) => finish(error));
  return () => finish();
}

/** On a Response made by `sseResponse`: how lib/server/direct writes the stream straight to Node's response instead. */
export const OPEN_SSE_DIRECTLY = Symbol.for("neurosurfer.open-sse-directly");
export type DirectSse = (sink: SseSink, signal: AbortSignal) => () => void;

/**
 * A Server-Sent Events response (see `openSse`). Nothing starts until the body
 * is first read, so a transport that writes the stream itself (the Response's
 * OPEN_SSE_DIRECTLY) costs no Web stream, and one that never reads it costs nothing.
 */
export function sseResponse(signal: AbortSignal, open: SseOpen): Response {
  let stop: (() => void) | null = null;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (stop) return;
        stop = openSse(
          {
            write: (text) => controller.enqueue(encoder.encode(text)),
            end: (error) => {
              try {
                if (error === undefined) controller.close();
                else controller.error(error);
              } catch {
                // The client already went away.
              }
            },
          },
          signal,
          open,
        );
      },
      cancel: () => stop?.(),
    },
    // Pulled only when read: nothing runs for a body nobody reads.
    { highWaterMark: 0 },
  );
  const response = new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
  const direct: DirectSse = (sink, directSignal) => openSse(sink, directSignal, open);
  return Object.assign(response, { [OPEN_SSE_DIRECTLY]: direct });
}

/**
 * A Server-Sent Events response for one run: everything after `afterSeq`
 * from the database, then live events, with no gap and no repeat. It
 * subscribes before reading, buffers what arrives meanwhile, and drops any
 * event it already sent (by sequence number). Ends with an `end` event once
 * the run has finished, so a client does not reconnect forever.
 */
export function runEventStream(source: EventSource, afterSeq: number, signal: AbortSignal): Response {
  return sseResponse(signal, async (channel) => {
    let lastSent = afterSeq;
    const end = () => {
      channel.write(`event: end\ndata: {}\n\n`);
      channel.close();
    };
    // Live events come as objects from the bus, stored ones as text from the database: sent alike, once each, in order.
    const sendText = (seq: number, type: RunEventType, text: () => string) => {
      if (channel.closed || seq <= lastSent) return;
      lastSent = seq;
      channel.write(text());
      if (RUN_ENDING_EVENT_TYPES.has(type)) end();
    };
    const send = (event: RunEvent) => sendText(event.seq, event.type, () => formatEvent(event));
    const sendStored = (event: EventText) => sendText(event.seq, event.type as RunEventType, () => formatEventText(event));
    let buffered: RunEvent[] | null = [];
    channel.onClose(source.subscribe((event) => (buffered ? buffered.push(event) : send(event))));
    channel.write(`retry: 1000\n\n`);
    for (;;) {
      const page = await source.read(lastSent, PAGE);
      page.forEach(sendStored);
      if (page.length < PAGE || channel.closed) break;
    }
    const pending: RunEvent[] = buffered;
    buffered = null;
    pending.sort((left, right) => left.seq - right.seq).forEach(send);
    if (!channel.closed && (await source.isFinished())) {
      // Finished before we subscribed: its last events were in the database; say so and stop.
      (await source.read(lastSent, PAGE)).forEach(sendStored);
      if (!channel.closed) end();
    }
  });
}
