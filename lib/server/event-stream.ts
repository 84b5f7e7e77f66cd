import { RUN_ENDING_EVENT_TYPES } from "@/lib/contracts/run-event";
import type { EventText } from "@/lib/persistence/run-event-queries";
import type { RunEvent, RunEventType } from "@/lib/workflow/run-types";

const encoder = new TextEncoder();
/** Comments keep proxies and browsers from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

/** One event in the SSE wire format, its sequence number as the id. */
export function formatEvent(event: RunEvent): string {
  return `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** Text or bytes (UTF-8) written to a stream as they are. */
export type SseChunk = string | Uint8Array;

/**
 * A stored event, already JSON (`readEventTexts`), in the SSE wire format: in
 * pieces, the payload as the database gave it, written one after another.
 */
export function formatEventText(event: EventText): SseChunk[] {
  const head = `id: ${event.seq}\nevent: ${event.type}\ndata: ${event.head}`;
  return event.payload.length === 0 ? [`${head}${event.tail}\n\n`] : [head, event.payload, `${event.tail}\n\n`];
}

export interface EventSource {
  /** Subscribes to live events; returns the unsubscribe function. */
  subscribe(listener: (event: RunEvent) => void): () => void;
  /**
   * Stored events after `afterSeq` as JSON text, in order, at most `limit`,
   * and no more past `maxBytes` of payload than the first event's (always read).
   */
  read(afterSeq: number, limit: number, maxBytes: number): Promise<EventText[]>;
  /** Whether the run has finished (its last event is stored). */
  isFinished(): Promise<boolean>;
}

const PAGE = 500;
/** What a page holds in place of an event already written. */
const SENT: EventText = { seq: 0, type: "", head: "", payload: "", tail: "" };
/**
 * The most one page of stored events may hold: a client replays a run a page
 * at a time, and a page of large events (steps' results of up to 1 MB each)
 * would otherwise hold hundreds of megabytes for one slow client (40 clients
 * not reading a 7 MB stream took the server from 608 MB to 1,247 MB).
 */
const PAGE_BYTES = 256 * 1024;
/** How much a Web stream may hold for its reader before the writers wait (as Node's own writable streams do). */
const WEB_STREAM_HIGH_WATER_BYTES = 16 * 1024;

/** The writing end of one Server-Sent Events response. */
export interface SseChannel {
  /** Writes raw SSE text (one or more complete messages, whole or in pieces); ignored once closed. */
  write(text: SseChunk | readonly SseChunk[]): void;
  /** Writes one named event with JSON data. */
  send(type: string, data: unknown): void;
  close(): void;
  /** Runs `cleanup` when the stream ends, whoever ends it (us, the client, an error). */
  onClose(cleanup: () => void): void;
  readonly closed: boolean;
  /** Whether the client is behind (what was written is still waiting for it). */
  readonly backedUp: boolean;
  /** Resolves once the client has caught up: true, or false when the stream closed meanwhile. */
  ready(): Promise<boolean>;
}

/** Where a channel's text goes: a Web stream (Next's routes) or Node's response itself (lib/server/direct). */
export interface SseSink {
  write(chunk: SseChunk): void;
  /** Ends the stream; `error` when opening it failed. */
  end(error?: unknown): void;
  /** Bytes written that the client has not taken yet, held in this process. */
  backlog(): number;
  /** Whether the client is behind: write no more until `onDrain`. */
  backedUp(): boolean;
  /** Calls `listener` once the client has caught up; returns a function that cancels the call. */
  onDrain(listener: () => void): () => void;
}

/**
 * A client that stops reading must not make the server hold its stream. A
 * channel's writers wait for `ready()` where they can (a replay reads the
 * next events only once the client took the last ones); text pushed
 * regardless (live notices, heartbeats) is refused past this many bytes
 * waiting, and a client that takes nothing for `STALL_MS` is let go. Either
 * way the stream closes; the client reconnects with Last-Event-ID and
 * continues where it left off.
 */
export const MAX_BACKLOG_BYTES = 1024 * 1024;
const STALL_MS = Number(process.env.STUDIO_SSE_STALL_MS) > 0 ? Number(process.env.STUDIO_SSE_STALL_MS) : 60_000;

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
  // Set while the client is behind: lets it go if it takes nothing for STALL_MS.
  let stall: { timer: ReturnType<typeof setTimeout>; cancel: () => void } | null = null;
  const watchForStall = () => {
    if (stall || !sink.backedUp()) return;
    const timer = setTimeout(() => finish(), STALL_MS);
    const cancelDrain = sink.onDrain(() => {
      clearTimeout(timer);
      stall = null;
    });
    stall = { timer, cancel: () => (clearTimeout(timer), cancelDrain()) };
  };
  cleanups.push(() => stall?.cancel());
  const channel: SseChannel = {
    write: (text) => {
      if (closed) return;
      if (sink.backlog() > MAX_BACKLOG_BYTES) {
        finish(); // not reading: it reconnects with Last-Event-ID
        return;
      }
      if (typeof text === "string" || text instanceof Uint8Array) sink.write(text);
      else for (const chunk of text) sink.write(chunk);
      watchForStall();
    },
    get backedUp() {
      return !closed && sink.backedUp();
    },
    ready: () => {
      if (closed) return Promise.resolve(false);
      if (!sink.backedUp()) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const cancelDrain = sink.onDrain(() => resolve(!closed));
        channel.onClose(() => {
          cancelDrain();
          resolve(false);
        });
      });
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
  const drainListeners = new Set<() => void>();
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        // A read found the queue empty: the client has taken everything written.
        for (const listener of [...drainListeners]) listener();
        drainListeners.clear();
        if (stop) return;
        const backlog = () => Math.max(0, -(controller.desiredSize ?? 0));
        stop = openSse(
          {
            write: (chunk) => controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk),
            end: (error) => {
              try {
                if (error === undefined) controller.close();
                else controller.error(error);
              } catch {
                // The client already went away.
              }
            },
            backlog,
            backedUp: () => backlog() > WEB_STREAM_HIGH_WATER_BYTES,
            onDrain: (listener) => {
              drainListeners.add(listener);
              return () => drainListeners.delete(listener);
            },
          },
          signal,
          open,
        );
      },
      cancel: () => stop?.(),
    },
    // Pulled only when read: nothing runs for a body nobody reads. Sized in bytes, so desiredSize says how many wait.
    { highWaterMark: 0, size: (chunk) => chunk.byteLength },
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
 * from the database, then live events, with no gap and no repeat. Ends with
 * an `end` event once the run has finished, so a client does not reconnect
 * forever.
 *
 * Live events are written as they come only while the client keeps up and
 * nothing is being read from the database. Otherwise (a replay under way, a
 * client behind, a gap in the numbers) a live event only says "there is more":
 * events are stored before they are published, so the stream reads them from
 * the database, a page at a time, writing each once the client has taken the
 * last. What the server holds for a slow client is one page, not the run.
 */
export function runEventStream(source: EventSource, afterSeq: number, signal: AbortSignal): Response {
  return sseResponse(signal, async (channel) => {
    let lastSent = afterSeq;
    let catchingUp = false;
    let more = false;
    const end = () => {
      channel.write(`event: end\ndata: {}\n\n`);
      channel.close();
    };
    // Live events come as objects from the bus, stored ones as text from the database: sent alike, once each, in order.
    const sendText = (seq: number, type: RunEventType, text: () => SseChunk | SseChunk[]) => {
      if (channel.closed || seq <= lastSent) return;
      lastSent = seq;
      channel.write(text());
      if (RUN_ENDING_EVENT_TYPES.has(type)) end();
    };
    const sendStored = (event: EventText) => sendText(event.seq, event.type as RunEventType, () => formatEventText(event));
    /** Writes what the database holds after `lastSent`, waiting for the client between events; again while more arrived meanwhile. */
    const catchUp = async (): Promise<void> => {
      if (catchingUp) return;
      catchingUp = true;
      try {
        do {
          more = false;
          let page: EventText[];
          let pageBytes: number;
          do {
            // Not a page more than the client can take: one that stopped reading holds what it was written, nothing read ahead.
            if (!(await channel.ready())) return;
            page = await source.read(lastSent, PAGE, PAGE_BYTES);
            pageBytes = 0;
            for (let index = 0; index < page.length; index += 1) {
              if (!(await channel.ready())) return;
              const event = page[index]!;
              // Let go of each event's text once written: a page may hold a megabyte result, and the wait for the next is long.
              page[index] = SENT;
              pageBytes += event.head.length + event.payload.length + event.tail.length;
              sendStored(event);
            }
            // A page cut by its bytes is shorter than PAGE with more to come, and holds at least PAGE_BYTES: read on.
          } while ((page.length === PAGE || pageBytes >= PAGE_BYTES) && !channel.closed);
        } while (more && !channel.closed);
      } finally {
        catchingUp = false;
      }
    };
    const onLive = (event: RunEvent) => {
      if (event.seq <= lastSent) return;
      if (catchingUp || channel.backedUp || event.seq !== lastSent + 1) {
        more = true;
        if (!catchingUp) catchUp().catch(() => channel.close());
        return;
      }
      sendText(event.seq, event.type, () => formatEvent(event));
    };
    // Subscribed before the first read, so nothing published meanwhile is missed (it sets `more`).
    channel.onClose(source.subscribe(onLive));
    channel.write(`retry: 1000\n\n`);
    await catchUp();
    if (!channel.closed && (await source.isFinished())) {
      // Finished before we subscribed: its last events were in the database; say so and stop.
      await catchUp();
      if (!channel.closed) end();
    }
  });
}
