import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDatabase, openDatabase, type StudioDatabase } from "@/lib/persistence";
import { createPostgresDatabase, dropPostgresDatabase } from "@/lib/persistence/temp-database";
import { listenForRunNotifications, type RunNotifications } from "./run-notifications";
import { newWorkerChannel, RunQueue } from "./run-queue";

/**
 * The run queue on a real PostgreSQL: a job sent is announced on the studio's
 * own channel, and the process wakes one idle slot for it, so a job does not
 * wait for a poll (each slot's own every 30 s; the backstop's, here turned
 * down) while another slot is busy.
 */

let url: string;
let database: StudioDatabase;
let queue: RunQueue;
let notifications: RunNotifications;
const driven: string[] = [];
let releaseLong: () => void = () => undefined;

beforeAll(async () => {
  url = await createPostgresDatabase();
  database = openDatabase(url);
  queue = await RunQueue.open(url, { log: () => undefined });
  notifications = await listenForRunNotifications(url, {
    eventsStored: () => undefined,
    decided: () => undefined,
    cancelRequested: () => undefined,
    testListenChanged: () => undefined,
    jobSent: (runId, toThisProcess) => queue.jobSent(runId, toThisProcess, () => undefined),
    reconnected: () => queue.wakeAll(),
    log: () => undefined,
  }, newWorkerChannel());
  const long = new Promise<void>((resolve) => (releaseLong = resolve));
  // No backstop within the test's time: a slot finds a job only because the job's notification woke it.
  await queue.work(
    2,
    async (runId) => {
      driven.push(runId);
      if (runId === "long-run") await long;
    },
    { backstopMs: 120_000 },
  );
}, 60_000);

afterAll(async () => {
  releaseLong();
  await queue?.stop(1_000);
  await notifications?.close();
  if (database) await disconnectDatabase(database);
  if (url) await dropPostgresDatabase(url);
});

const send = (runId: string) => database.$transaction((transaction) => queue.sendWithin(transaction, runId));

describe("RunQueue", () => {
  it("drives a job sent while one slot is busy on the other slot at once, not at its next poll 30 s later", async () => {
    await send("long-run");
    await expect.poll(() => driven.includes("long-run"), { timeout: 15_000 }).toBe(true);
    const sentAt = Date.now();
    await send("short-run");
    // The other slot polls every 30 s and the backstop is off: only the notification gets it there in time.
    await expect.poll(() => driven.includes("short-run"), { timeout: 15_000, interval: 50 }).toBe(true);
    expect(Date.now() - sentAt).toBeLessThan(15_000);
    releaseLong();
  });

  it("drives each of a burst of jobs once", async () => {
    const burst = Array.from({ length: 20 }, (_, index) => `burst-${index}`);
    await Promise.all(burst.map(send));
    await expect.poll(() => burst.filter((runId) => driven.includes(runId)).length, { timeout: 20_000 }).toBe(burst.length);
    expect(driven.filter((runId) => runId.startsWith("burst-")).sort()).toEqual([...burst].sort());
  });
});
