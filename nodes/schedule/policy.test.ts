import { describe, expect, it } from "vitest";
import { MAX_QUEUED_SLOTS, overlapOutcome, planFirings } from "./policy";

const at = (second: number) => new Date(Date.UTC(2026, 2, 2, 10, 0, second));

describe("the missed-slot policy", () => {
  it("skip: nothing for the missed slots, each on-time slot once", () => {
    expect(planFirings({ count: 40, latest: at(40) }, [at(41), at(42)], "skip")).toEqual([
      { slot: at(41), missedSlots: 0 },
      { slot: at(42), missedSlots: 0 },
    ]);
  });

  it("run-once: one run at the newest missed slot standing for all of them, then the on-time slots", () => {
    expect(planFirings({ count: 40, latest: at(40) }, [at(41)], "run-once")).toEqual([
      { slot: at(40), missedSlots: 40 },
      { slot: at(41), missedSlots: 0 },
    ]);
  });

  it("nothing missed: either policy fires the on-time slots alone", () => {
    expect(planFirings({ count: 0, latest: null }, [at(1)], "run-once")).toEqual([{ slot: at(1), missedSlots: 0 }]);
    expect(planFirings({ count: 0, latest: null }, [], "skip")).toEqual([]);
  });
});

describe("the overlap policy", () => {
  it("allow starts whatever runs", () => {
    expect(overlapOutcome("allow", true, 3)).toBe("start");
  });

  it("skip starts only when nothing of the schedule is going", () => {
    expect(overlapOutcome("skip", true, 0)).toBe("skip");
    expect(overlapOutcome("skip", false, 0)).toBe("start");
  });

  it("queue waits behind a running run and behind slots already waiting, up to a limit", () => {
    expect(overlapOutcome("queue", false, 0)).toBe("start");
    expect(overlapOutcome("queue", true, 0)).toBe("queue");
    expect(overlapOutcome("queue", false, 2)).toBe("queue");
    expect(overlapOutcome("queue", true, MAX_QUEUED_SLOTS - 1)).toBe("queue");
    expect(overlapOutcome("queue", true, MAX_QUEUED_SLOTS)).toBe("skip");
  });
});
