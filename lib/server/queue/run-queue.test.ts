import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkflow, disconnectDatabase, newId, openDatabase, type StudioDatabase } from "@/lib/persistence";
import { findRunnableVersion, insertRun } from "@/lib/persistence/run-queries";
import { PrismaRunStore } from "@/lib/persistence/run-store";
import { createPostgresDatabase, dropPostgresDatabase } from "@/lib/persistence/temp-database";
import { listenForRunNotifications, type RunNotifications } from "./run-notifications";
import { JOBS_CHANNEL, newWorkerChannel, RUN_QUEUE, RunQueue } from "./run-queue";

/**
 * The run queue on a real PostgreSQL: a job sent is announced on the studio's
 * own channel, and the process wakes one idle slot for it, so a job does not
 * wait for a poll (each slot's own every 30 s; the backstop's, here turned
 * down) while another slot is busy. And a job sent within a transaction
 * exists exactly when what made it necessary (a run, a decision) committed.
 */

let url: string;
let database: StudioDatabase;
let queue: RunQueue;
let notifications: RunNotifications;
const driven: string[] = [];
let releaseLong: () => void = () => undefined;
/** Runs whose drive waits until the test lets it go. */
const heldRuns = new Map<string, Promise<void>>();

/** This process's own jobs channel: its notification connection listens there, and its queue knows it is its own. */
const ownChannel = newWorkerChannel();

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
  }, ownChannel);
  const long = new Promise<void>((resolve) => (releaseLong = resolve));
  // No backstop within the test's time: a slot finds a job only because the job's notification woke it.
  await queue.work(
    2,
    async (runId) => {
      driven.push(runId);
      if (runId === "long-run") await long;
      await heldRuns.get(runId);
    },
    { backstopMs: 120_000, channel: ownChannel },
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

/** The run's jobs in pg-boss's table (schema "pgboss"), in any state: a job a worker completed is still a row. */
async function jobsOf(runId: string): Promise<{ data: unknown }[]> {
  return database.$queryRaw<{ data: unknown }[]>`SELECT data FROM pgboss.job WHERE name = ${RUN_QUEUE} AND singleton_key = ${runId}`;
}

/** Fails the transaction it runs in, after the job was sent in it. */
class AfterTheSend extends Error {}

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

  it("with every slot busy, the only working process passes no job on to all (nobody else could take it) and drives it once a slot frees", async () => {
    const passedOn: string[] = [];
    const listener = new pg.Client({ connectionString: url });
    await listener.connect();
    listener.on("notification", (message) => passedOn.push(message.payload ?? ""));
    await listener.query(`LISTEN ${JOBS_CHANNEL}`);
    try {
      const releases: (() => void)[] = [];
      for (const runId of ["busy-1", "busy-2"]) heldRuns.set(runId, new Promise<void>((resolve) => releases.push(resolve)));
      await send("busy-1");
      await send("busy-2");
      await expect.poll(() => driven.includes("busy-1") && driven.includes("busy-2"), { timeout: 15_000 }).toBe(true);
      await send("waiting-run");
      releases.forEach((release) => release());
      // A slot that finishes fetches again at once: the job is driven without anyone else being asked.
      await expect.poll(() => driven.includes("waiting-run"), { timeout: 15_000 }).toBe(true);
      // Had it been passed on, the notification (sent while both slots were busy) would have arrived by now.
      await listener.query("SELECT 1");
      expect(passedOn).not.toContain("waiting-run");
    } finally {
      await listener.end();
    }
  });

  it("drives each of a burst of jobs once", async () => {
    const burst = Array.from({ length: 20 }, (_, index) => `burst-${index}`);
    await Promise.all(burst.map(send));
    await expect.poll(() => burst.filter((runId) => driven.includes(runId)).length, { timeout: 20_000 }).toBe(burst.length);
    expect(driven.filter((runId) => runId.startsWith("burst-")).sort()).toEqual([...burst].sort());
  });
});

describe("RunQueue.sendThrough and sendWithin: the job commits with the row that needs it, or neither does", () => {
  async function runnableVersion() {
    const workflow = await createWorkflow({ name: "Sent with its run", nodes: [{ id: "in", kind: "input", fields: [] }], edges: [] }, database);
    return findRunnableVersion(workflow.id, undefined, database);
  }

  it("a run whose transaction fails after its job was sent leaves neither; a committed run has exactly one job, which a worker drives", async () => {
    const version = await runnableVersion();
    const failed = newId();
    const failing = insertRun(version, {}, database, {
      runId: failed,
      withinTransaction: async (transaction, runId) => {
        await queue.sendThrough(transaction, runId);
        throw new AfterTheSend();
      },
    });
    await expect(failing).rejects.toBeInstanceOf(AfterTheSend);
    expect(await database.run.count({ where: { id: failed } })).toBe(0);
    // Had the job escaped the transaction, it would name a run that never existed.
    expect(await jobsOf(failed)).toEqual([]);

    const run = await insertRun(version, {}, database, { withinTransaction: (transaction, runId) => queue.sendThrough(transaction, runId) });
    expect(await database.run.count({ where: { id: run.id } })).toBe(1);
    expect(await jobsOf(run.id)).toEqual([{ data: { runId: run.id } }]);
    await expect.poll(() => driven.includes(run.id), { timeout: 15_000 }).toBe(true);
  });

  it("a decision whose transaction fails after the run's job was sent leaves the approval pending and no job; a recorded one leaves exactly one job", async () => {
    const version = await runnableVersion();
    // Created without a job, so every job of this run below comes from a decision.
    const run = await insertRun(version, {}, database);
    const request = { runId: run.id, nodeId: "in", key: "effect", kind: "shell", tool: "run_command", operation: "run", arguments: { command: "true" }, preview: "true", digest: "digest" } as const;
    const failingStore = new PrismaRunStore(database, {
      shared: {
        afterDecision: async (transaction, approval) => {
          await queue.sendWithin(transaction, approval.runId);
          throw new AfterTheSend();
        },
      },
    });
    const { approval } = await failingStore.openApproval(request);
    const decision = { decision: "approve", feedback: null, decidedBy: "Ada" } as const;
    await expect(failingStore.decideApproval(approval.id, decision)).rejects.toBeInstanceOf(AfterTheSend);
    expect(await database.approval.findUniqueOrThrow({ where: { id: approval.id } })).toMatchObject({ status: "pending", decision: null });
    expect(await jobsOf(run.id)).toEqual([]);

    const store = new PrismaRunStore(database, { shared: { afterDecision: (transaction, decided) => queue.sendWithin(transaction, decided.runId) } });
    expect(await store.decideApproval(approval.id, decision)).toMatchObject({ changed: true, approval: { status: "approved", decidedBy: { personId: null, name: "Ada" } } });
    expect(await jobsOf(run.id)).toEqual([{ data: { runId: run.id } }]);
    await expect.poll(() => driven.includes(run.id), { timeout: 15_000 }).toBe(true);
  });
});
