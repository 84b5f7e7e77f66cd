import type { RunEvent } from "@/lib/workflow/run-types";

const encoder = new TextEncoder();
/** Comments keep proxies and browsers from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

/** One event in the SSE wire format, its sequence number as the id. */
export function formatEvent(event: RunEvent): string {
  return `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

export interface EventSource {
  /** Subscribes to live events; returns the unsubscribe function. */
  subscribe(listener: (event: RunEvent) => void): () => void;
  /** Events after `afterSeq`, in order, at most `limit`. */
  read(afterSeq: number, limit: number): Promise<RunEvent[]>;
  /** Whether the run has finished (its last event is stored). */
  isFinished(): Promise<boolean>;
}

const PAGE = 500;

/**
 * A Server-Sent Events response for one run: everything after `afterSeq`
 * from the database, then live events, with no gap and no repeat. It
 * subscribes before reading, buffers what arrives meanwhile, and drops any
 * event it already sent (by sequence number). Ends with an `end` event once
 * the run has finished, so a client does not reconnect forever.
 */
export function runEventStream(source: EventSource, afterSeq: number, signal: AbortSignal): Response {
  let lastSent = afterSeq;
  let closed = false;
  let unsubscribe: () => void = () => undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const close = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        clearInterval(heartbeat);
        try {
          controller.close();
        } catch {
          // Already closed by the client going away.
        }
      };
      const send = (event: RunEvent) => {
        if (closed || event.seq <= lastSent) return;
        lastSent = event.seq;
        controller.enqueue(encoder.encode(formatEvent(event)));
        if (event.type === "run-succeeded" || event.type === "run-failed" || event.type === "run-cancelled") {
          controller.enqueue(encoder.encode(`event: end\ndata: {}\n\n`));
          close();
        }
      };
      signal.addEventListener("abort", close);

      let buffered: RunEvent[] | null = [];
      unsubscribe = source.subscribe((event) => (buffered ? buffered.push(event) : send(event)));
      try {
        controller.enqueue(encoder.encode(`retry: 1000\n\n`));
        for (;;) {
          const page = await source.read(lastSent, PAGE);
          page.forEach(send);
          if (page.length < PAGE || closed) break;
        }
        const pending: RunEvent[] = buffered;
        buffered = null;
        pending.sort((left, right) => left.seq - right.seq).forEach(send);
        if (!closed && (await source.isFinished())) {
          // Finished before we subscribed: its last events were in the database; say so and stop.
          const rest = await source.read(lastSent, PAGE);
          rest.forEach(send);
          if (!closed) {
            controller.enqueue(encoder.encode(`event: end\ndata: {}\n\n`));
            close();
          }
        }
        heartbeat = setInterval(() => {
          if (!closed) controller.enqueue(encoder.encode(`: keep-alive\n\n`));
        }, HEARTBEAT_MS);
      } catch (error) {
        controller.error(error);
        close();
      }
    },
    cancel() {
      closed = true;
      unsubscribe();
      clearInterval(heartbeat);
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
}
