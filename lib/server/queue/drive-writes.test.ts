import { describe, expect, it } from "vitest";
import type { StatementRunner } from "@/lib/persistence/postgres-statements";
import { DriveWrites } from "./drive-writes";

/** A statement runner that records what it was asked and answers when the test says (or fails when told to). */
function slowRunner() {
  const calls: unknown[][] = [];
  const answers: Array<(error?: Error) => void> = [];
  const runner: StatementRunner = {
    run: (_text, values) => {
      calls.push(values);
      return new Promise((resolve, reject) => answers.push((error) => (error ? reject(error) : resolve({ rows: [], changed: 0 }))));
    },
  };
  return { runner, calls, answer: (error?: Error) => answers.shift()!(error) };
}

describe("DriveWrites", () => {
  it("writes the ends that come while one statement is on its way together, in the next", async () => {
    const { runner, calls, answer } = slowRunner();
    const ends = new DriveWrites(runner);
    const first = ends.end({ runId: "a", driver: "da" });
    const second = ends.end({ runId: "b", driver: "db" });
    const third = ends.end({ runId: "c", driver: "dc" });
    expect(calls).toEqual([[["a"], ["da"]]]);
    answer();
    await first;
    await expect.poll(() => calls.length).toBe(2);
    expect(calls[1]).toEqual([["b", "c"], ["db", "dc"]]);
    answer();
    await Promise.all([second, third]);
  });

  it("rejects every end of a statement that failed, and goes on with the next", async () => {
    const { runner, calls, answer } = slowRunner();
    const ends = new DriveWrites(runner);
    const first = ends.end({ runId: "a", driver: "da" });
    const second = ends.end({ runId: "b", driver: "db" });
    answer();
    await first;
    await expect.poll(() => calls.length).toBe(2);
    answer(new Error("the database went away"));
    await expect(second).rejects.toThrow("the database went away");
    const third = ends.end({ runId: "c", driver: "dc" });
    await expect.poll(() => calls.length).toBe(3);
    answer();
    await third;
  });

  it("renews leases only between two writes of ends, never beside one, and says which drives it renewed", async () => {
    const { runner, calls, answer } = slowRunner();
    const writes = new DriveWrites(runner);
    const ended = writes.end({ runId: "a", driver: "da" });
    const renewed = writes.renew([{ runId: "b", driver: "db" }], 10);
    // The end's statement is on its way: the renewal waits for it.
    expect(calls).toEqual([[["a"], ["da"]]]);
    answer();
    await ended;
    await expect.poll(() => calls.length).toBe(2);
    expect(calls[1]).toEqual([["b"], ["db"], 10]);
    answer();
    expect(await renewed).toEqual(new Set());
  });
});
