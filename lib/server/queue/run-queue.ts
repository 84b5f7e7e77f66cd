import { fromPrisma, PgBoss } from "pg-boss";

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
 */
export const RUN_QUEUE = "studio-runs";
const SCHEMA = "pgboss";
/** pg-boss's minimum: a dead worker's run moves on after about this long. */
export const HEARTBEAT_SECONDS = 10;
const SUPERVISE_SECONDS = 5;
/** pg-boss's maximum; a run driven this long in one go is handed to another drive (a replay that skips finished steps). */
const EXPIRE_SECONDS = 24 * 60 * 60;

export interface RunJob {
  runId: string;
}

/** What a transaction must offer for a job to be sent in it (Prisma's interactive transaction client). */
type TransactionLike = Parameters<typeof fromPrisma>[0];

export interface RunQueueOptions {
  log: (message: string, error?: unknown) => void;
}

export class RunQueue {
  private constructor(private readonly boss: PgBoss) {}

  /** Connects, installs or upgrades pg-boss's schema when needed, and makes sure the run queue exists. */
  static async open(url: string, options: RunQueueOptions): Promise<RunQueue> {
    const boss = new PgBoss({
      connectionString: url,
      schema: SCHEMA,
      // A job is started the moment it is sent (LISTEN/NOTIFY), not at the next poll.
      useListenNotify: true,
      // Look for jobs whose worker stopped beating every few seconds (pg-boss's default is a minute).
      superviseIntervalSeconds: SUPERVISE_SECONDS,
      monitorIntervalSeconds: SUPERVISE_SECONDS,
      max: 3,
    });
    boss.on("error", (error) => options.log("job queue error", error));
    await boss.start();
    if (!(await boss.getQueue(RUN_QUEUE))) {
      try {
        await boss.createQueue(RUN_QUEUE, {
          policy: "stately",
          notify: true,
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

  /** Sends the job that drives `runId`, inside `transaction`: it exists if and only if the transaction commits. */
  async sendWithin(transaction: TransactionLike, runId: string): Promise<void> {
    const job: RunJob = { runId };
    // null = a job for this run already waits (stately): that one will drive it.
    await this.boss.send(RUN_QUEUE, job, { singletonKey: runId, db: fromPrisma(transaction) });
  }

  /**
   * Works on run jobs, `concurrency` at a time: `drive` resolves when the run
   * has finished or no longer needs a worker (it waits for a person). Its
   * signal aborts when the job's claim is lost (a missed heartbeat) or at
   * shutdown: stop driving, another worker continues.
   */
  async work(concurrency: number, drive: (runId: string, signal: AbortSignal) => Promise<void>): Promise<void> {
    const options = {
      localConcurrency: concurrency,
      batchSize: 1,
      // A new job wakes an idle worker at once (NOTIFY), but a worker that was busy when it arrived, or a job that
      // waited behind its run's active one, is found only by polling: pg-boss's default backstop of 30 s is too slow.
      pollingIntervalSeconds: 1,
      notifyPollingIntervalSeconds: 1,
      // Beat often: a busy machine that delays one beat should not lose the job (a lost job is safe, see claimRun, but wasteful).
      heartbeatRefreshSeconds: 3,
    };
    await this.boss.work<RunJob>(RUN_QUEUE, options, async ([job]) => {
      if (job) await drive(job.data.runId, job.signal);
    });
  }

  /** Stops fetching; in-flight jobs get `graceMs` to finish before their signals abort. */
  async stop(graceMs: number): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: graceMs, close: true });
  }
}
