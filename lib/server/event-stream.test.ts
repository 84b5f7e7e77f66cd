import { describe, expect, it } from "vitest";
import { OPEN_SSE_DIRECTLY, openSse, sseResponse, type DirectSse, type SseSink } from "./event-stream";

/** A sink that records what the stream wrote and how it ended. */
function recordingSink() {
  const written: string[] = [];
  let ended: { error: unknown } | null = null;
  const sink: SseSink = {
    write: (text) => written.push(text),
    end: (error) => (ended = { error }),
  };
  return { sink, written, ended: () => ended };
}

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
