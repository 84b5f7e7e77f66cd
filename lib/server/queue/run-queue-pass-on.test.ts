import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { StatementRunner } from "@/lib/persistence/postgres-statements";
import { JOBS_CHANNEL, newWorkerChannel, RunQueue } from "./run-queue";
import { LIST_WORKER_CHANNELS, NOTIFY, TAKE_DRIVES } from "./run-drive-sql";

/**
 * A working process whose slots are all busy passes the drives sent to it on
 * to every process. It does so with few notifications (each is a commit and
 * wakes every listening connection of the database): the first at once, those
 * that follow within the gather time together. Statements are answered by a
 * stand-in for the database and time is the test's, so what is sent, and when,
 * is exact (run-queue.test.ts drives the queue on a real PostgreSQL).
 */

const ownChannel = newWorkerChannel();
const otherChannel = newWorkerChannel();

/** The database as the queue sees it: one drive to take (which then holds the only slot), two working processes. */
function stubDatabase() {
  const passedOn: string[] = [];
  let taken = false;
  const statements: StatementRunner = {
    run: async <Row,>(text: string, values: unknown[]) => {
      let rows: unknown[] = [];
      if (text === TAKE_DRIVES && !taken) {
        taken = true;
        rows = [{ runId: "busy", driver: "drive-1" }];
      } else if (text === LIST_WORKER_CHANNELS) rows = [{ channel: ownChannel }, { channel: otherChannel }];
      else if (text === NOTIFY && values[0] === JOBS_CHANNEL) passedOn.push(String(values[1]));
      return { rows: rows as Row[], changed: rows.length };
    },
  };
  return { statements, passedOn };
}

describe("RunQueue: a process with every slot busy passes on what it is sent", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  async function busyQueue() {
    const database = stubDatabase();
    const queue = new RunQueue(database.statements, { log: () => undefined });
    // The only slot drives "busy" until the test ends.
    queue.work(1, () => new Promise<void>(() => undefined), { channel: ownChannel });
    // Learns of the other working process (a sender lists them to pick whom to tell).
    queue.requestWrites("listing");
    await vi.advanceTimersByTimeAsync(0);
    return { queue, ...database };
  }

  it("the first at once, those that follow within the gather time in one more notification, then nothing", async () => {
    const { queue, passedOn } = await busyQueue();
    for (const runId of ["sent-1", "sent-2", "sent-3", "sent-4", "sent-5"]) queue.jobSent(runId, true);
    await vi.advanceTimersByTimeAsync(0);
    expect(passedOn).toEqual(["sent-1"]);
    await vi.advanceTimersByTimeAsync(25);
    expect(passedOn).toEqual(["sent-1", "sent-5"]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(passedOn).toEqual(["sent-1", "sent-5"]);
    // Quiet again: the next one goes at once.
    queue.jobSent("sent-6", true);
    await vi.advanceTimersByTimeAsync(0);
    expect(passedOn).toEqual(["sent-1", "sent-5", "sent-6"]);
  });

  it("passes on what waits at once when it stops, and each sent later at once, and nothing of what every process was told", async () => {
    const { queue, passedOn } = await busyQueue();
    queue.jobSent("sent-1", true);
    queue.jobSent("sent-2", true);
    // Sent to every process: this one, full, leaves it to the others.
    queue.jobSent("to-all", false);
    await vi.advanceTimersByTimeAsync(0);
    expect(passedOn).toEqual(["sent-1"]);
    void queue.stop(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(passedOn).toEqual(["sent-1", "sent-2"]);
    // Stopping, it gathers nothing: each goes at once, while its connections are still open.
    queue.jobSent("late-1", true);
    queue.jobSent("late-2", true);
    await vi.advanceTimersByTimeAsync(0);
    expect(passedOn).toEqual(["sent-1", "sent-2", "late-1", "late-2"]);
  });
});
