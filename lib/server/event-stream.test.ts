import { afterEach, describe, expect, it, vi } from "vitest";
import { eventTextOf, type EventText } from "@/lib/persistence/run-queries";
import type { RunEvent } from "@/lib/workflow/run-types";
import { MAX_BACKLOG_BYTES, OPEN_SSE_DIRECTLY, openSse, runEventStream, sseResponse, type DirectSse, type EventSource, type SseChunk, type SseSink } from "./event-stream";

/**
 * A sink that records what the stream wrote and how it ended, and plays a
 * client that reads only when told (`take()`): until then what was written
 * waits, as it would in a socket's buffer. `reading` = a client that keeps up.
 */
function recordingSink(options: { reading?: boolean; highWater?: number } = {}) {
  const written: string[] = [];
  const chunks: SseChunk[] = [];
  let waiting = 0;
  let ended: { error: unknown } | null = null;
  const drains = new Set<() => void>();
  const highWater = options.highWater ?? 16 * 1024;
  const sink: SseSink = {
    write: (chunk) => {
      chunks.push(chunk);
      const text = typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
      written.push(text);
      if (!(options.reading ?? true)) waiting += text.length;
    },
    end: (error) => (ended = { error }),
    backlog: () => waiting,
    backedUp: () => waiting > highWater,
    onDrain: (listener) => {
      drains.add(listener);
      return () => drains.delete(listener);
    },
  };
  /** The client takes everything waiting. */
  const take = () => {
    waiting = 0;
    for (const listener of [...drains]) listener();
    drains.clear();
  };
  return { sink, written, chunks, ended: () => ended, take, waiting: () => waiting };
}

const settle = async () => {
  for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
};

/** A run's stored events and its live bus, as the store and the engine provide them (stored first, then published). */
function runEvents(runId = "run-1") {
  const stored: RunEvent[] = [];
  const listeners = new Set<(event: RunEvent) => void>();
  let reads = 0;
  const source: EventSource = {
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    read: async (afterSeq, limit, maxBytes) => {
      reads += 1;
      const page: EventText[] = [];
      let bytes = 0;
      for (const event of stored.filter((each) => each.seq > afterSeq).slice(0, limit)) {
        if (page.length > 0 && bytes >= maxBytes) break;
        const json = JSON.stringify(event);
        bytes += json.length;
        page.push(eventTextOf(event.seq, event.type, json));
      }
      return page;
    },
    isFinished: async () => stored.some((event) => event.type === "run-succeeded"),
  };
  const append = (type: RunEvent["type"], text = "") => {
    const event = { runId, seq: stored.length + 1, type, at: "2026-12-03T00:00:00.000Z", nodeId: null, data: { text } } as unknown as RunEvent;
    stored.push(event);
    for (const listener of [...listeners]) listener(event);
  };
  return { source, append, reads: () => reads };
}

const seqsIn = (written: string[]) => [...written.join("").matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));

function openRunStream(source: EventSource, sink: SseSink, afterSeq = 0) {
  const response = runEventStream(source, afterSeq, new AbortController().signal) as Response & { [OPEN_SSE_DIRECTLY]: DirectSse };
  return response[OPEN_SSE_DIRECTLY](sink, new AbortController().signal);
}

afterEach(() => {
  vi.useRealTimers();
});

describe("openSse", () => {
  it("opens nothing for a client that left before the stream began, and ends the sink", async () => {
    const gone = new AbortController();
    gone.abort();
    let opened = false;
    const { sink, ended } = recordingSink();
    openSse(sink, gone.signal, () => {
      opened = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(opened).toBe(false);
    expect(ended()).toEqual({ error: undefined });
  });

  it("writes what the channel is given, runs its cleanups once when the client leaves, and writes nothing after", async () => {
    const client = new AbortController();
    const { sink, written, ended } = recordingSink();
    let cleanups = 0;
    let keep: ((text: string) => void) | null = null;
    openSse(sink, client.signal, (channel) => {
      channel.onClose(() => (cleanups += 1));
      channel.send("hello", { n: 1 });
      keep = (text) => channel.write(text);
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toEqual([`event: hello\ndata: {"n":1}\n\n`]);
    client.abort();
    keep!("late");
    expect(cleanups).toBe(1);
    expect(written).toHaveLength(1);
    expect(ended()).toEqual({ error: undefined });
  });

  it("ends the sink with the error when opening fails", async () => {
    const { sink, ended } = recordingSink();
    const failure = new Error("the run's events could not be read");
    openSse(sink, new AbortController().signal, () => Promise.reject(failure));
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended()).toEqual({ error: failure });
  });
});

describe("sseResponse", () => {
  it("streams the same text through its body or straight to a sink, and starts nothing until one of them asks", async () => {
    let opens = 0;
    const open = () =>
      sseResponse(new AbortController().signal, (channel) => {
        opens += 1;
        channel.send("only", {});
        channel.close();
      });
    const viaBody = open();
    expect(opens).toBe(0);
    expect(await viaBody.text()).toBe(`event: only\ndata: {}\n\n`);

    const direct = open() as Response & { [OPEN_SSE_DIRECTLY]: DirectSse };
    const { sink, written, ended } = recordingSink();
    direct[OPEN_SSE_DIRECTLY](sink, new AbortController().signal);
    await new Promise((resolve) => setImmediate(resolve));
    expect(written.join("")).toBe(`event: only\ndata: {}\n\n`);
    expect(ended()).toEqual({ error: undefined });
    expect(opens).toBe(2);
  });
});

describe("a client that reads slowly, or not at all", () => {
  it("replays a long run only as fast as the client takes it: the server holds at most a little over its high-water mark", async () => {
    const run = runEvents();
    const big = "x".repeat(1_000);
    for (let index = 0; index < 3_000; index++) run.append("node-progress" as RunEvent["type"], big);
    const client = recordingSink({ reading: false });
    openRunStream(run.source, client.sink);
    await settle();
    // Stopped writing once the client was behind: about 16 KB waiting, not 3 MB.
    expect(client.waiting()).toBeGreaterThan(16 * 1024);
    expect(client.waiting()).toBeLessThan(16 * 1024 + 2_000);
    const before = seqsIn(client.written).length;
    await settle();
    expect(seqsIn(client.written)).toHaveLength(before);
    // Taking what waits lets the stream go on, in order, each event once.
    for (let turn = 0; turn < 1_000 && seqsIn(client.written).length < 3_000; turn++) {
      client.take();
      await settle();
    }
    expect(seqsIn(client.written)).toEqual(Array.from({ length: 3_000 }, (_, index) => index + 1));
  });

  it("reads the next page only once the client took the last, and writes a stored payload's bytes as the database gave them", async () => {
    // Events of 300 KB each, their payloads as bytes (SQLite's): a page is one of them, past the page's byte bound.
    const payloads = Array.from({ length: 4 }, (_, index) => new TextEncoder().encode(JSON.stringify({ text: String(index).repeat(300_000) })));
    let reads = 0;
    const source: EventSource = {
      subscribe: () => () => undefined,
      read: async (afterSeq) => {
        reads += 1;
        const seq = afterSeq + 1;
        if (seq > payloads.length) return [];
        const head = `{"runId":"run-1","seq":${seq},"type":"node-progress","nodeId":null,"payload":`;
        return [{ seq, type: "node-progress", head, payload: payloads[seq - 1]!, tail: `,"createdAt":"2026-12-05T00:00:00.000Z"}` }];
      },
      isFinished: async () => true,
    };
    const client = recordingSink({ reading: false });
    openRunStream(source, client.sink);
    await settle();
    // The first event went out and the client took none of it: nothing more is read, so nothing more is held.
    expect(seqsIn(client.written)).toEqual([1]);
    expect(reads).toBe(1);
    expect(client.chunks).toContain(payloads[0]);
    for (let turn = 0; turn < 20 && seqsIn(client.written).length < payloads.length; turn++) {
      client.take();
      await settle();
    }
    expect(seqsIn(client.written)).toEqual([1, 2, 3, 4]);
    // Each payload went to the socket as the very bytes read, and each message is the event's JSON on one data line.
    for (const payload of payloads) expect(client.chunks).toContain(payload);
    const messages = client.written.join("").split("\n\n").filter((message) => message.startsWith("id: "));
    expect(messages.map((message) => (JSON.parse(message.split("\ndata: ")[1]!) as { payload: { text: string } }).payload.text.length)).toEqual([300_000, 300_000, 300_000, 300_000]);
  });

  it("writes live events while the client keeps up; while it is behind they wait in the database, then come in order, once each", async () => {
    const run = runEvents();
    run.append("run-started" as RunEvent["type"]);
    const client = recordingSink({ reading: false, highWater: 100 });
    openRunStream(run.source, client.sink);
    await settle();
    expect(seqsIn(client.written)).toEqual([1]);
    client.take();
    run.append("node-started" as RunEvent["type"], "a".repeat(200)); // live, written at once: the client is behind again
    expect(seqsIn(client.written)).toEqual([1, 2]);
    const readsBefore = run.reads();
    for (let index = 0; index < 50; index++) run.append("node-progress" as RunEvent["type"], "b".repeat(200));
    await settle();
    expect(seqsIn(client.written)).toEqual([1, 2]);
    for (let turn = 0; turn < 200 && seqsIn(client.written).length < 52; turn++) {
      client.take();
      await settle();
    }
    expect(seqsIn(client.written)).toEqual(Array.from({ length: 52 }, (_, index) => index + 1));
    expect(run.reads()).toBeGreaterThan(readsBefore);
    run.append("run-succeeded" as RunEvent["type"]);
    client.take();
    await settle();
    expect(seqsIn(client.written).at(-1)).toBe(53);
    expect(client.written.join("")).toMatch(/event: end\n/);
    expect(client.ended()).toEqual({ error: undefined });
  });

  it("lets a client go that takes nothing for a minute, and one past a megabyte behind: it reconnects with Last-Event-ID", async () => {
    vi.useFakeTimers();
    const stalled = recordingSink({ reading: false, highWater: 10 });
    let write: ((text: string) => void) | null = null;
    openSse(stalled.sink, new AbortController().signal, (channel) => {
      write = (text) => channel.write(text);
    });
    await vi.advanceTimersByTimeAsync(0);
    write!("id: 1\nevent: a\ndata: {}\n\n");
    await vi.advanceTimersByTimeAsync(59_000);
    expect(stalled.ended()).toBeNull();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(stalled.ended()).toEqual({ error: undefined });

    const flooded = recordingSink({ reading: false, highWater: 10 });
    let push: ((text: string) => void) | null = null;
    openSse(flooded.sink, new AbortController().signal, (channel) => {
      push = (text) => channel.write(text);
    });
    await vi.advanceTimersByTimeAsync(0);
    const chunk = "y".repeat(64 * 1024);
    for (let index = 0; index < 40 && flooded.ended() === null; index++) push!(chunk);
    expect(flooded.ended()).toEqual({ error: undefined });
    expect(flooded.waiting()).toBeLessThanOrEqual(MAX_BACKLOG_BYTES + chunk.length);
  });
});
