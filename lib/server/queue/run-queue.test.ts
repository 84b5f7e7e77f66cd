import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkflow, disconnectDatabase, newId, openDatabase, type StudioDatabase } from "@/lib/persistence";
import { findRunnableVersion, insertRun, type RunnableVersion } from "@/lib/persistence/run-queries";
import { PrismaRunStore } from "@/lib/persistence/run-store";
import { createPostgresDatabase, dropPostgresDatabase } from "@/lib/persistence/temp-database";
import { listenForRunNotifications, type RunNotifications } from "./run-notifications";
import { JOBS_CHANNEL, newWorkerChannel, RunQueue } from "./run-queue";

/**
 * The run queue on a real PostgreSQL: a drive asked for is announced on the
 * studio's own channel and the process fetches for an idle slot at once (the
 * backstop poll is turned down here, so only notifications and a slot's own
 * end make it fetch); one drive per run at a time with at most one more asked
 * for; a taken drive claims its run; failures back off; a dead holder's run is
 * taken over and a holder that lost its lease is told to stop. And a drive
 * asked for within a transaction exists exactly when what made it necessary
 * (a run, a decision) committed.
 */

let url: string;
let database: StudioDatabase;
let queue: RunQueue;
let notifications: RunNotifications;
let version: RunnableVersion;
/** Every drive this process made: its run and its drive id, in order. */
const drives: { runId: string; driver: string }[] = [];
/** Runs whose drive waits until the test lets it go. */
const heldRuns = new Map<string, Promise<void>>();
/** Runs whose next drive fails. */
const failingOnce = new Set<string>();
/** The signals of the drives under way, by run. */
const signals = new Map<string, AbortSignal>();

/** This process's own jobs channel: its notification connection listens there, and its queue knows it is its own. */
const ownChannel = newWorkerChannel();

const drivesOf = (runId: string) => drives.filter((drive) => drive.runId === runId);
const driven = (runId: string) => drivesOf(runId).length > 0;

beforeAll(async () => {
  url = await createPostgresDatabase();
  database = openDatabase(url);
  queue = RunQueue.of(database, { log: () => undefined });
  notifications = await listenForRunNotifications(
    url,
    {
      eventsStored: () => undefined,
      decided: () => undefined,
      cancelRequested: () => undefined,
      testListenChanged: () => undefined,
      jobSent: (runId, toThisProcess) => queue.jobSent(runId, toThisProcess),
      reconnected: () => queue.wakeAll(),
      log: () => undefined,
    },
    ownChannel,
  );
  const workflow = await createWorkflow({ name: "Queued", nodes: [{ id: "in", kind: "input", fields: [] }], edges: [] }, database);
  version = await findRunnableVersion(workflow.id, undefined, database);
  // No backstop within the test's time: a slot finds a run only because a notification or a slot's end made it look.
  queue.work(
    2,
    async (runId, signal, driver) => {
      drives.push({ runId, driver });
      signals.set(runId, signal);
      // Held until the test lets it go, or until told to stop (a lost lease, the queue's stop after its grace).
      await Promise.race([heldRuns.get(runId), new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }))]);
      if (failingOnce.delete(runId)) throw new Error("the database went away");
    },
    { backstopMs: 120_000, channel: ownChannel },
  );
}, 60_000);

afterAll(async () => {
  // Drives still held are told to stop after the grace.
  await queue?.stop(1_000);
  await notifications?.close();
  if (database) await disconnectDatabase(database);
  if (url) await dropPostgresDatabase(url);
});

/** A stored run with no drive asked for yet. */
const newRun = async () => (await insertRun(version, {}, database)).id;
const send = (runId: string) => database.$transaction((transaction) => queue.sendWithin(transaction, runId));
/** Holds `runId`'s drives until the returned function is called. */
function hold(runId: string): () => void {
  let release: () => void = () => undefined;
  heldRuns.set(runId, new Promise<void>((resolve) => (release = resolve)));
  return () => {
    heldRuns.delete(runId);
    release();
  };
}
const driveRow = (runId: string) => database.runDrive.findUnique({ where: { runId } });

/** Fails the transaction it runs in, after the drive was asked for in it. */
class AfterTheSend extends Error {}

describe("RunQueue", () => {
  it("drives a run asked for while one slot is busy on the other slot at once, not at a poll", async () => {
    const [long, short] = [await newRun(), await newRun()];
    const releaseLong = hold(long);
    await send(long);
    await expect.poll(() => driven(long), { timeout: 15_000 }).toBe(true);
    await send(short);
    // The backstop is off: only the notification gets it there.
    await expect.poll(() => driven(short), { timeout: 15_000, interval: 50 }).toBe(true);
    releaseLong();
  });

  it("claims the run as it takes it: the run's driver is the drive's id, and the drive's row goes when it ends", async () => {
    const runId = await newRun();
    const release = hold(runId);
    await send(runId);
    await expect.poll(() => driven(runId), { timeout: 15_000 }).toBe(true);
    const { driver } = drivesOf(runId)[0]!;
    expect((await database.run.findUniqueOrThrow({ where: { id: runId } })).driver).toBe(driver);
    expect(await driveRow(runId)).toMatchObject({ takenBy: driver, requested: false, attempts: 1 });
    release();
    await expect.poll(() => driveRow(runId), { timeout: 15_000 }).toBeNull();
  });

  it("drives a run asked for again while it is driven once more after that drive, however often it was asked", async () => {
    const runId = await newRun();
    const release = hold(runId);
    await send(runId);
    await expect.poll(() => driven(runId), { timeout: 15_000 }).toBe(true);
    for (let times = 0; times < 3; times += 1) await send(runId);
    expect(await driveRow(runId)).toMatchObject({ requested: true });
    release();
    await expect.poll(() => driveRow(runId), { timeout: 15_000 }).toBeNull();
    expect(drivesOf(runId)).toHaveLength(2);
    // Each drive under its own claim.
    expect(new Set(drivesOf(runId).map((drive) => drive.driver)).size).toBe(2);
  });

  it("asks again, after a backoff, for a run whose drive failed, and drives it then", async () => {
    const runId = await newRun();
    failingOnce.add(runId);
    const release = hold(runId);
    await send(runId);
    await expect.poll(() => driven(runId), { timeout: 15_000 }).toBe(true);
    const failedAt = Date.now();
    release();
    // Given back (no holder), not gone.
    await expect.poll(async () => { const row = await driveRow(runId); return row ? row.takenBy : "no row"; }, { timeout: 15_000 }).toBeNull();
    const row = await driveRow(runId);
    expect(row).toMatchObject({ requested: true, attempts: 1 });
    // Due a second after it failed (the first backoff), not at once: the database's clock, stored as UTC.
    expect(row!.dueAt.getTime()).toBeGreaterThanOrEqual(failedAt + 1_000);
    // Nothing announces a retry coming due; the backstop (a wake here) takes it once it is.
    await expect.poll(() => (queue.wakeAll(), drivesOf(runId).length), { timeout: 15_000, interval: 200 }).toBe(2);
    await expect.poll(() => driveRow(runId), { timeout: 15_000 }).toBeNull();
  });

  it("takes over a run whose holder's lease ran out (its process died), under a new claim", async () => {
    const runId = await newRun();
    await database.run.update({ where: { id: runId }, data: { driver: "dead-drive" } });
    await database.runDrive.create({ data: { runId, requested: false, takenBy: "dead-drive", leaseUntil: new Date(Date.now() - 60_000), attempts: 1 } });
    await expect.poll(() => (queue.wakeAll(), driven(runId)), { timeout: 15_000, interval: 200 }).toBe(true);
    const { driver } = drivesOf(runId)[0]!;
    expect(driver).not.toBe("dead-drive");
    expect((await database.run.findUniqueOrThrow({ where: { id: runId } })).driver).toBe(driver);
    await expect.poll(() => driveRow(runId), { timeout: 15_000 }).toBeNull();
  });

  it("tells a drive whose lease was lost to stop (its signal aborts) at its next renewal", async () => {
    const runId = await newRun();
    const release = hold(runId);
    await send(runId);
    await expect.poll(() => driven(runId), { timeout: 15_000 }).toBe(true);
    // Another worker took the run over (this process froze past its lease, say).
    await database.runDrive.update({ where: { runId }, data: { takenBy: "another-drive", leaseUntil: new Date(Date.now() + 3_600_000) } });
    await expect.poll(() => signals.get(runId)?.aborted, { timeout: 15_000 }).toBe(true);
    release();
    // Its end changes nothing of the other's.
    await expect.poll(() => queue.jobCounts(), { timeout: 15_000 }).toMatchObject({ active: 1 });
    expect(await driveRow(runId)).toMatchObject({ takenBy: "another-drive" });
    await database.runDrive.delete({ where: { runId } });
  });

  it("with every slot busy, the only working process passes nothing on to all (nobody else could take it) and drives it once a slot frees", async () => {
    const passedOn: string[] = [];
    const listener = new pg.Client({ connectionString: url });
    await listener.connect();
    listener.on("notification", (message) => passedOn.push(message.payload ?? ""));
    await listener.query(`LISTEN ${JOBS_CHANNEL}`);
    try {
      const busy = [await newRun(), await newRun()];
      const releases = busy.map(hold);
      for (const runId of busy) await send(runId);
      await expect.poll(() => busy.every(driven), { timeout: 15_000 }).toBe(true);
      const waiting = await newRun();
      await send(waiting);
      releases.forEach((release) => release());
      // A slot that ends a drive fetches again at once: the run is driven without anyone else being asked.
      await expect.poll(() => driven(waiting), { timeout: 15_000 }).toBe(true);
      // Had it been passed on, the notification (sent while both slots were busy) would have arrived by now.
      await listener.query("SELECT 1");
      expect(passedOn).not.toContain(waiting);
    } finally {
      await listener.end();
    }
  });

  it("drives each of a burst of runs once", async () => {
    const burst = await Promise.all(Array.from({ length: 20 }, newRun));
    await Promise.all(burst.map(send));
    await expect.poll(() => burst.filter(driven).length, { timeout: 20_000 }).toBe(burst.length);
    for (const runId of burst) expect(drivesOf(runId)).toHaveLength(1);
    await expect.poll(() => queue.jobCounts(), { timeout: 15_000 }).toEqual({ waiting: 0, active: 0 });
  });
});

describe("RunQueue.requestWrites and sendWithin: the drive is asked for with the row that needs it, or neither is", () => {
  it("a run whose statement fails asks for no drive; a run created with its request has its drive, which a worker takes", async () => {
    // The run's own statement fails (its id is taken) after the request is a part of it: the request goes with it.
    const existing = await newRun();
    const failing = insertRun(version, {}, database, { runId: existing, alongWith: (runId) => queue.requestWrites(runId) });
    await expect(failing).rejects.toThrow();
    expect(await driveRow(existing)).toBeNull();

    const runId = newId();
    const release = hold(runId);
    const run = await insertRun(version, {}, database, { runId, alongWith: (id) => queue.requestWrites(id) });
    expect(await database.run.count({ where: { id: run.id } })).toBe(1);
    // Announced to this process with the run (the backstop is off).
    await expect.poll(() => driven(run.id), { timeout: 15_000 }).toBe(true);
    expect(await driveRow(run.id)).toMatchObject({ requested: false, takenBy: drivesOf(run.id)[0]!.driver });
    release();
  });

  it("a decision whose transaction fails after the run's drive was asked for leaves the approval pending and no drive; a recorded one asks for one", async () => {
    // Created without a drive, so every drive of this run below comes from a decision.
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
    expect(await driveRow(run.id)).toBeNull();

    const store = new PrismaRunStore(database, { shared: { afterDecision: (transaction, decided) => queue.sendWithin(transaction, decided.runId) } });
    expect(await store.decideApproval(approval.id, decision)).toMatchObject({ changed: true, approval: { status: "approved", decidedBy: { personId: null, name: "Ada" } } });
    await expect.poll(() => driven(run.id), { timeout: 15_000 }).toBe(true);
    expect(drivesOf(run.id)).toHaveLength(1);
  });
});
