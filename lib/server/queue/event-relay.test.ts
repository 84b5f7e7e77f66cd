import { describe, expect, it } from "vitest";
import { RunEventBus } from "@/lib/workflow/event-bus";
import type { RunEvent } from "@/lib/workflow/run-types";
import { EventRelay } from "./event-relay";

const event = (runId: string, seq: number, type = "node-progress"): RunEvent =>
  ({ runId, seq, type, nodeId: null, payload: {}, createdAt: new Date(0).toISOString() }) as RunEvent;

/** A stored event table, read the way readEvents does (after a seq, at most `limit`), that can be slow. */
function table(events: RunEvent[], delayMs = 0) {
  const reads: Array<[string, number, number]> = [];
  const read = async (runId: string, afterSeq: number, limit: number) => {
    reads.push([runId, afterSeq, limit]);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return events.filter((each) => each.runId === runId && each.seq > afterSeq).slice(0, limit);
  };
  return { read, reads };
}

describe("EventRelay", () => {
  it("publishes each stored event once, in order, however the notifications bunch up", async () => {
    const stored = [1, 2, 3, 4, 5].map((seq) => event("r", seq));
    const { read } = table(stored, 5);
    const bus = new RunEventBus();
    const seen: number[] = [];
    bus.subscribe("r", (each) => seen.push(each.seq));
    const relay = new EventRelay(bus, read, () => undefined);

    relay.eventsStored("r", 1, 2);
    relay.eventsStored("r", 3, 3);
    relay.eventsStored("r", 3, 5); // a repeat overlapping what is relayed already
    await expect.poll(() => seen.length).toBe(5);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it("starts a run it never heard of at the notified events, and forgets a run once it has finished", async () => {
    const stored = [event("r", 1), event("r", 2), event("r", 3, "run-succeeded")];
    const { read, reads } = table(stored);
    const bus = new RunEventBus();
    const seen: number[] = [];
    bus.subscribe("r", (each) => seen.push(each.seq));
    const relay = new EventRelay(bus, read, () => undefined);

    relay.eventsStored("r", 2, 3);
    await expect.poll(() => seen).toEqual([2, 3]);
    expect(reads[0]).toEqual(["r", 1, 2]);
    // Finished: a later notification for it starts from its own first event again instead of a stale cursor.
    relay.caughtUp(async () => 3);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen).toEqual([2, 3]);
  });

  it("reads no events nobody here hears: a listener of some runs' ends makes it read only the notifications that say one of those ended", async () => {
    const stored = [event("r", 1), event("r", 2), event("r", 3, "run-succeeded"), event("s", 1), event("t", 1), event("t", 2), event("u", 1, "run-failed")];
    const { read, reads } = table(stored);
    const bus = new RunEventBus();
    const ends: string[] = [];
    bus.subscribeAll((each) => ends.push(`${each.runId}:${each.type}`), { endsOf: (runId) => runId !== "u" });
    const relay = new EventRelay(bus, read, () => undefined);

    relay.eventsStored("r", 1, 2, false);
    relay.eventsStored("r", 3, 3, true);
    await expect.poll(() => ends).toEqual(["r:run-succeeded"]);
    // Only the notification of the end was read, from just before it.
    expect(reads).toEqual([["r", 2, 1]]);

    // The end of a run the listener does not look at: not read either.
    relay.eventsStored("u", 1, 1, true);
    // Not said (a process of an earlier version): read, to be safe.
    relay.eventsStored("s", 1, 1, undefined);
    await expect.poll(() => reads.length).toBe(2);
    // A run someone here follows: everything of it is read.
    const followed: number[] = [];
    bus.subscribe("t", (each) => followed.push(each.seq));
    relay.eventsStored("t", 1, 2, false);
    await expect.poll(() => followed).toEqual([1, 2]);
    expect(reads.map(([runId]) => runId)).toEqual(["r", "s", "t"]);
  });

  it("publishes the events a notification carries without reading them, when they are next in line", async () => {
    const stored = [event("r", 1), event("r", 2), event("r", 3, "run-succeeded")];
    const { read, reads } = table(stored);
    const bus = new RunEventBus();
    const seen: string[] = [];
    bus.subscribe("r", (each) => seen.push(`${each.seq}:${each.type}`));
    const relay = new EventRelay(bus, read, () => undefined);

    relay.eventsStored("r", 1, 2, false, JSON.stringify(stored.slice(0, 2)));
    relay.eventsStored("r", 3, 3, true, JSON.stringify(stored.slice(2)));
    await expect.poll(() => seen).toEqual(["1:node-progress", "2:node-progress", "3:run-succeeded"]);
    expect(reads).toEqual([]);
  });

  it("reads from the table instead when what a notification carries does not follow what was published, or is not what it announced", async () => {
    const stored = [1, 2, 3, 4, 5, 6].map((seq) => event("r", seq));
    const { read, reads } = table(stored);
    const bus = new RunEventBus();
    const seen: number[] = [];
    bus.subscribe("r", (each) => seen.push(each.seq));
    const relay = new EventRelay(bus, read, () => undefined);

    relay.eventsStored("r", 1, 2, false, JSON.stringify(stored.slice(0, 2)));
    await expect.poll(() => seen).toEqual([1, 2]);
    // Events 3 and 4 were announced where this process missed it (its connection broke): 5 and 6 carried are not next.
    relay.eventsStored("r", 5, 6, false, JSON.stringify(stored.slice(4, 6)));
    await expect.poll(() => seen).toEqual([1, 2, 3, 4, 5, 6]);
    expect(reads).toEqual([["r", 2, 4]]);
    // Carried text that does not match the numbers it came with (or is not JSON): read.
    const more = [7, 8].map((seq) => event("r", seq));
    stored.push(...more);
    relay.eventsStored("r", 7, 8, false, JSON.stringify(more.slice(0, 1)));
    await expect.poll(() => seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(reads).toEqual([["r", 2, 4], ["r", 6, 2]]);
  });
});
