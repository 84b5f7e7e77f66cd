import { randomBytes } from "node:crypto";
import { fromPrisma, PgBoss } from "pg-boss";
import type { SqlExecutor } from "@/lib/persistence/postgres-statements";
import { PreparingClient } from "./preparing-client";

/**
 * The job queue that drives runs when several processes share a PostgreSQL
 * database: pg-boss, in its own schema of the studio's database.
 *
 * One job names one run. The queue's policy is `stately` with the run's id as
 * the singleton key: at most one job per run is active (one worker drives a
 * run at a time) and at most one waits behind it (a second request to drive
 * the run while one is queued adds nothing). A job is sent in the transaction
 * that makes it necessary (the run's creation, a decision, a cancel request),
 * so it can never name a row that is not committed, and a committed run
 * always has one. A worker that dies stops its heartbeat; after
 * HEARTBEAT_SECONDS the job is retried on another worker, which resumes the
 * run from what is stored.
 *
 * Waking workers is the studio's, not pg-boss's: pg-boss's own LISTEN wakes
 * every idle worker of every process for each job sent, and all of them race
 * to fetch the one job (with 4 processes of 8 slots, some 30 fetches a job:
 * one-step runs got slower with every worker added). Instead each send
 * notifies one working process, in its transaction: every working process
 * listens on a channel of its own, named in its listening connection's
 * application_name, so a sender lists them from pg_stat_activity and takes
 * them in turn. The process wakes one idle slot (`wakeOne`); with none idle it
 * passes the job on to every process (JOBS_CHANNEL), each of which wakes one.
 * A slot that finishes a job fetches again at once. Polling is the backstop
 * (an idle slot of each process every second) for what no notification announces: a job that waited behind its run's
 * active one, a retry coming due, a dead worker's job, a process that died
 * with its notification.
 */
export const RUN_QUEUE = "studio-runs";
const SCHEMA = "pgboss";
/** pg-boss's minimum: a dead worker's run moves on after about this long. */
export const HEARTBEAT_SECONDS = 10;
const SUPERVISE_SECONDS = 5;
/** pg-boss's maximum; a run driven this long in one go is handed to another drive (a replay that skips finished steps). */
const EXPIRE_SECONDS = 24 * 60 * 60;

/** The channel every working process hears: a job no one process took (payload the run's id). */
export const JOBS_CHANNEL = "studio_run_jobs";
/** A working process's own channel is this and 16 hex digits; its listening connection's application_name says it. */
export const WORKER_CHANNEL_PREFIX = "studio_run_jobs_";
/** How long a sender trusts its list of working processes before asking pg_stat_activity again. */
const WORKER_LIST_MS = 2_000;

/** A new process's own channel for the jobs sent to it. */
export function newWorkerChannel(): string {
  return `${WORKER_CHANNEL_PREFIX}${randomBytes(8).toString("hex")}`;
}

const WORKER_CHANNEL = new RegExp(`^${WORKER_CHANNEL_PREFIX}[0-9a-f]{16}$`);

/** Whether `name` is a channel `newWorkerChannel` makes (names go into LISTEN unquoted, so nothing else may pass). */
export function isWorkerChannel(name: string): boolean {
  return WORKER_CHANNEL.test(name);
}

/** How often an idle slot of a process looks for jobs nobody announced (the backstop); each slot's own poll is rare. */
const BACKSTOP_POLL_MS = 1_000;
const SLOT_POLL_SECONDS = 30;
const JOB_COUNTS = `SELECT count(*) FILTER (WHERE state < 'active')::int AS waiting, count(*) FILTER (WHERE state = 'active')::int AS active
  FROM ${SCHEMA}.job WHERE name = $1 AND state <= 'active'`;
const NOTIFY = `SELECT 1 AS "sent" FROM (SELECT pg_notify($1, $2)) AS "notified"`;

export interface RunJob {
  runId: string;
}

/** What a transaction must offer for a job to be sent in it (Prisma's interactive transaction client). */
type TransactionLike = Parameters<typeof fromPrisma>[0];

export interface RunQueueOptions {
  log: (message: string, error?: unknown) => void;
}

export class RunQueue {
  /** This process's slots (pg-boss worker ids) that are not driving a run now, longest idle first. */
  private readonly idle = new Set<string>();
  /** The working processes' channels as last listed, taken in turn; empty: notify them all. */
  private workerChannels: string[] = [];
  private nextWorker = 0;
  private workersListedAt = 0;
  private listing = false;
  private backstop: ReturnType<typeof setInterval> | null = null;
  /** This process's own jobs channel, once it works on runs (`work`). */
  private ownChannel: string | null = null;

  private constructor(private readonly boss: PgBoss) {}

  /** Connects, installs or upgrades pg-boss's schema when needed, and makes sure the run queue exists. */
  static async open(url: string, options: RunQueueOptions): Promise<RunQueue> {
    // Not in pg-boss's option types, but passed on to its pg.Pool, as every other connection option is.
    const pool = { Client: PreparingClient };
    const boss = new PgBoss({
      ...pool,
      connectionString: url,
      schema: SCHEMA,
      // Slots are woken by the studio's own notification (see above), one per process, not all of them by pg-boss's.
      useListenNotify: false,
      // Look for jobs whose worker stopped beating every few seconds (pg-boss's default is a minute).
      superviseIntervalSeconds: SUPERVISE_SECONDS,
      monitorIntervalSeconds: SUPERVISE_SECONDS,
      max: 3,
    });
    boss.on("error", (error) => options.log("job queue error", error));
    await boss.start();
    const existing = await boss.getQueue(RUN_QUEUE);
    // Made by an earlier version, which had pg-boss notify for each job: a notification nobody listens for now.
    if (existing?.notify) await boss.updateQueue(RUN_QUEUE, { notify: false });
    if (!existing) {
      try {
        await boss.createQueue(RUN_QUEUE, {
          policy: "stately",
          notify: false,
          heartbeatSeconds: HEARTBEAT_SECONDS,
          expireInSeconds: EXPIRE_SECONDS,
          // A job fails only on an infrastructure error (the database went away): try again, backing off to half a minute.
          retryLimit: 10_000,
          retryDelay: 1,
          retryBackoff: true,
          retryDelayMax: 30,
        });
      } catch (error) {
        // Another process created it at the same moment.
        if (!(await boss.getQueue(RUN_QUEUE))) throw error;
      }
    }
    return new RunQueue(boss);
  }

  /**
   * The queue's jobs waiting for a slot (created, or a retry not yet due) and those a slot drives now, counted in the
   * job table (the queue's own counts are the monitor's, up to SUPERVISE_SECONDS old). pg-boss's states are an enum in
   * that order: created, retry, active, then the finished ones.
   */
  async jobCounts(): Promise<{ waiting: number; active: number }> {
    const { rows } = await this.boss.getDb().executeSql(JOB_COUNTS, [RUN_QUEUE]);
    const [counts] = rows as { waiting: number; active: number }[];
    return { waiting: counts?.waiting ?? 0, active: counts?.active ?? 0 };
  }

  /** Sends the job that drives `runId`, inside Prisma's `transaction`: it exists if and only if the transaction commits. */
  sendWithin(transaction: TransactionLike, runId: string): Promise<void> {
    return this.sendThrough(fromPrisma(transaction), runId);
  }

  /** The same through any transaction that runs SQL (the statement pool's, on the run creation path). */
  async sendThrough(db: SqlExecutor, runId: string): Promise<void> {
    const job: RunJob = { runId };
    // null = a job for this run already waits (stately): that one will drive it.
    await this.boss.send(RUN_QUEUE, job, { singletonKey: runId, db });
    // Delivered on commit, with the job; pg_notify returns void, which Prisma cannot read, hence the wrapping select.
    await db.executeSql(NOTIFY, [this.nextWorkerChannel(), runId]);
  }

  /**
   * A job was announced, to this process (`toThisProcess`) or to all: an idle
   * slot here looks for it; with none idle, a job sent to this process is passed
   * on to every process, one of which takes it. A process that only serves has
   * no slots and hears only what is sent to all: it does nothing.
   */
  jobSent(runId: string, toThisProcess: boolean, log: (message: string, error?: unknown) => void): void {
    if (this.wakeOne() || !toThisProcess) return;
    // The only working process (as last listed): nobody else could take it, and a slot here looks again as it finishes.
    if (this.onlyWorkingProcess()) return;
    this.boss
      .getDb()
      .executeSql(NOTIFY, [JOBS_CHANNEL, runId])
      .catch((error: unknown) => log(`could not pass on the job of run ${runId}`, error));
  }

  /**
   * Whether this process is the only one that works on runs, by a list at most WORKER_LIST_MS old (listed again
   * meanwhile, not waited for); false when it does not know its own channel or the list is not there yet.
   */
  private onlyWorkingProcess(): boolean {
    this.refreshWorkerList();
    return this.ownChannel !== null && this.workersListedAt > 0 && this.workerChannels.length === 1 && this.workerChannels[0] === this.ownChannel;
  }

  private refreshWorkerList(): void {
    if (Date.now() - this.workersListedAt > WORKER_LIST_MS && !this.listing) void this.listWorkers();
  }

  /** The next working process's channel, from a list at most WORKER_LIST_MS old (listed again meanwhile, not waited for). */
  private nextWorkerChannel(): string {
    this.refreshWorkerList();
    if (this.workerChannels.length === 0) return JOBS_CHANNEL;
    this.nextWorker = (this.nextWorker + 1) % this.workerChannels.length;
    return this.workerChannels[this.nextWorker]!;
  }

  private async listWorkers(): Promise<void> {
    this.listing = true;
    try {
      const { rows } = await this.boss
        .getDb()
        // This database's processes only: a notification reaches listeners of its own database, so a worker of another
        // studio (or another test's database) on the same server could never hear a job sent to its channel.
        .executeSql(`SELECT DISTINCT "application_name" AS "channel" FROM pg_stat_activity WHERE "datname" = current_database() AND left("application_name", $1) = $2`, [
          WORKER_CHANNEL_PREFIX.length,
          WORKER_CHANNEL_PREFIX,
        ]);
      this.workerChannels = (rows as { channel: string }[]).map((row) => row.channel).filter(isWorkerChannel);
      this.workersListedAt = Date.now();
    } catch {
      // Not listed this time: jobs go to every process (JOBS_CHANNEL) until a listing works.
      this.workerChannels = [];
    } finally {
      this.listing = false;
    }
  }

  /** One idle slot of this process looks for a job (the one idle longest); false when none is idle. */
  private wakeOne(): boolean {
    const [slot] = this.idle;
    if (slot === undefined) return false;
    // To the back of the line: the next job wakes another slot, even before this one has fetched.
    this.idle.delete(slot);
    this.idle.add(slot);
    this.boss.notifyWorker(slot);
    return true;
  }

  /** Notifications may have been missed (the listening connection broke): every idle slot looks once. */
  wakeAll(): void {
    for (const slot of this.idle) this.boss.notifyWorker(slot);
  }

  /**
   * Works on run jobs, `concurrency` at a time: `drive` resolves when the run
   * has finished or no longer needs a worker (it waits for a person). Its
   * signal aborts when the job's claim is lost (a missed heartbeat) or at
   * shutdown: stop driving, another worker continues.
   */
  async work(
    concurrency: number,
    drive: (runId: string, signal: AbortSignal) => Promise<void>,
    { backstopMs = BACKSTOP_POLL_MS, channel }: { backstopMs?: number; channel?: string } = {},
  ): Promise<void> {
    // Its own jobs channel (the one its notification connection listens on): how it finds itself in the list of workers.
    this.ownChannel = channel ?? null;
    const options = {
      batchSize: 1,
      // Beat often: a busy machine that delays one beat should not lose the job (a lost job is safe, see claimRun, but wasteful).
      heartbeatRefreshSeconds: 3,
    };
    // One pg-boss worker per slot (rather than localConcurrency), so that a notification can wake exactly one of them.
    for (let index = 0; index < concurrency; index += 1) {
      let slot = "";
      slot = await this.boss.work<RunJob>(RUN_QUEUE, { ...options, pollingIntervalSeconds: SLOT_POLL_SECONDS }, async ([job]) => {
        if (!job || !slot) return;
        this.idle.delete(slot);
        try {
          await drive(job.data.runId, job.signal);
        } finally {
          this.idle.add(slot);
          // Fetch again as soon as this job is completed, not a poll later: a job may be waiting (sent while every slot was busy).
          this.boss.notifyWorker(slot);
        }
      });
      this.idle.add(slot);
    }
    // The backstop is whichever slot is idle, so a process whose first slot drives a long run still looks every second.
    this.backstop ??= setInterval(() => this.wakeOne(), backstopMs);
    this.backstop.unref();
  }

  /** Stops fetching; in-flight jobs get `graceMs` to finish before their signals abort. */
  async stop(graceMs: number): Promise<void> {
    if (this.backstop) clearInterval(this.backstop);
    await this.boss.stop({ graceful: true, timeout: graceMs, close: true });
  }
}
