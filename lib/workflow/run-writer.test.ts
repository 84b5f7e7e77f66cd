import { describe, expect, it } from "vitest";
import { RunWriter } from "./run-writer";
import type { RunCommit, RunEvent, RunStore } from "./run-types";

const event = (seq: number): RunEvent => ({ runId: "r", seq, type: "run-resumed", nodeId: null, payload: {}, createdAt: new Date(0).toISOString() }) as RunEvent;

/** A store that records commits and fails the ones it is told to. */
function recordingStore(failOn: (commit: RunCommit) => boolean) {
  const committed: number[][] = [];
  const store = {
    commit: async (_runId: string, commit: RunCommit) => {
      if (failOn(commit)) throw new Error("the database went away");
      committed.push(commit.events.map((each) => each.seq));
    },
  } as unknown as RunStore;
  return { store, committed };
}

describe("RunWriter", () => {
  it("groups writes queued while one is in flight into one commit, in order", async () => {
    const { store, committed } = recordingStore(() => false);
    const writer = new RunWriter(store, "r");
    await Promise.all([1, 2, 3].map((seq) => writer.write({ steps: [], events: [event(seq)] })));
    expect(committed.flat()).toEqual([1, 2, 3]);
    expect(committed.length).toBeLessThanOrEqual(2);
  });

  it("stops at the first failed write: later writes fail too, so the stored events never have a gap", async () => {
    const { store, committed } = recordingStore((commit) => commit.events.some((each) => each.seq === 2));
    const writer = new RunWriter(store, "r");
    await writer.write({ steps: [], events: [event(1)] });
    await expect(writer.write({ steps: [], events: [event(2)] })).rejects.toThrow("the database went away");
    // The database is back, but this run's memory is ahead of what is stored: nothing more is written from it.
    await expect(writer.write({ steps: [], events: [event(3)] })).rejects.toThrow("the database went away");
    expect(committed).toEqual([[1]]);
  });

  it("says when everything handed in so far is committed", async () => {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const committed: number[] = [];
    const store = {
      commit: async (_runId: string, commit: RunCommit) => {
        await opened;
        committed.push(...commit.events.map((each) => each.seq));
      },
    } as unknown as RunStore;
    const writer = new RunWriter(store, "r");
    await writer.idle();
    void writer.write({ steps: [], events: [event(1)] });
    let idle = false;
    const waiting = writer.idle().then(() => (idle = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(idle).toBe(false);
    open();
    await waiting;
    expect(committed).toEqual([1]);
  });
});
