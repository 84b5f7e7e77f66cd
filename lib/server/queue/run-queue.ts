import { randomBytes } from "node:crypto";
import { postgresStatements, type StudioDatabase } from "@/lib/persistence/database";
import { prismaExecutor, statementExecutor, type SqlExecutor, type StatementRunner } from "@/lib/persistence/postgres-statements";
import { combineWrites } from "@/lib/persistence/combined-statement";
import type { Write } from "@/lib/persistence/run-commit-writes";
import { DriveWrites } from "./drive-writes";
import { ANNOUNCE_DRIVE, COUNT_DRIVES, FAIL_DRIVE, LIST_WORKER_CHANNELS, NOTIFY, REQUEST_DRIVE, TAKE_DRIVES, type TakenDrive } from "./run-drive-sql";

/**
 * The queue that drives runs when several processes share a PostgreSQL
 * database: a row of table "RunDrive" per run that needs driving or is being
 * driven (statements in run-drive-sql.ts), on the same prepared-statement
 * pool as the run's own writes.
 *
 * - A drive is asked for in the transaction that makes it necessary (the
 *   run's creation, a decision, a cancel request): it can never name a row
 *   that is not committed, and a committed run always has one.
 * - One drive per run at a time, and at most one more asked for behind it: a
 *   run asked for again while a worker drives it is driven once more when that
 *   drive ends, however often it was asked.
 * - Taking a drive claims the run in the same statement (its `driver`, which
 *   fences the writes of any earlier drive), so a worker starts on a run
 *   after one round trip.
 * - The process holding a drive renews its lease every few seconds; a lease
 *   that runs out (the process died or froze) lets any worker take the run
 *   over, and the old drive, should it wake, can no longer write.
 * - A drive that fails (an infrastructure error, a shutdown) is asked for
 *   again after a backoff.
 *
 * Waking workers: each request notifies one working process, in its
 * transaction: every working process listens on a channel of its own, named
 * in its listening connection's application_name, so a sender lists them from
 * pg_stat_activity and takes them in turn. The process fetches for its idle
 * slots; with none idle it passes the request on to every process
 * (JOBS_CHANNEL), one notification for all it could not take within
 * PASS_ON_GATHER_MS (whoever hears it fetches every due drive it has slots
 * for, not one). A slot that ends a drive fetches again at once. Polling is
 * the backstop (every second while a slot is idle) for what no notification
 * announces: a drive asked for while the run was driven, a retry coming due, a
 * dead process's run, a process that died with its notification.
 *
 * It replaced pg-boss (an earlier version's job queue): a job insert, fetch,
 * complete and the separate claim, on a table with 17 indexes, cost about a
 * third of PostgreSQL's CPU per run.
 */

/** A drive's lease: a dead worker's run moves on after about this long. */
export const LEASE_SECONDS = 10;
/** How often a process renews its drives' leases (a busy machine that delays one renewal keeps them). */
const RENEW_EVERY_MS = 3_000;
/** The longest backoff between failed drives of a run (while the database is away, say). */
const MAX_BACKOFF_SECONDS = 30;

/** The channel every working process hears: a drive no one process took (payload the run's id). */
export const JOBS_CHANNEL = "studio_run_jobs";
/** A working process's own channel is this and 16 hex digits; its listening connection's application_name says it. */
export const WORKER_CHANNEL_PREFIX = "studio_run_jobs_";
/** How long a sender trusts its list of working processes before asking pg_stat_activity again. */
const WORKER_LIST_MS = 2_000;

/** A new process's own channel for the drives asked of it. */
export function newWorkerChannel(): string {
  return `${WORKER_CHANNEL_PREFIX}${randomBytes(8).toString("hex")}`;
}

const WORKER_CHANNEL = new RegExp(`^${WORKER_CHANNEL_PREFIX}[0-9a-f]{16}$`);

/** Whether `name` is a channel `newWorkerChannel` makes (names go into LISTEN unquoted, so nothing else may pass). */
export function isWorkerChannel(name: string): boolean {
  return WORKER_CHANNEL.test(name);
}

/**
 * A process with every slot busy passes the drives announced to it on to every process, the first at once and those
 * that follow within this long in one more notification. A saturated worker was passing on every run it was sent: a
 * notification (a commit, and a wake-up of every listening connection of the database) per run.
 */
const PASS_ON_GATHER_MS = 25;

/** How often an idle process looks for drives nobody announced (the backstop). */
const BACKSTOP_POLL_MS = 1_000;

/** What a transaction must offer for a drive to be asked for in it (Prisma's interactive transaction client). */
type TransactionLike = Parameters<typeof prismaExecutor>[0];

/** Drives run `runId` under claim `driver`; resolves when it no longer needs this worker, throws to be driven again later. */
export type DriveRun = (runId: string, signal: AbortSignal, driver: string) => Promise<void>;

export interface RunQueueOptions {
  log: (message: string, error?: unknown) => void;
}

interface HeldDrive extends TakenDrive {
  controller: AbortController;
}

export class RunQueue {
  /** The drives this process holds now, by drive id. */
  private readonly held = new Map<string, HeldDrive>();
  /** Each held drive's end (its row written), for `stop`. */
  private readonly ends = new Set<Promise<void>>();
  private slots = 0;
  private driveRun: DriveRun | null = null;
  private fetching = false;
  private fetchAgain = false;
  private stopping = false;
  private backstop: ReturnType<typeof setInterval> | null = null;
  private renewal: ReturnType<typeof setInterval> | null = null;
  /** The working processes' channels as last listed, taken in turn; empty: notify them all. */
  private workerChannels: string[] = [];
  private nextWorker = 0;
  private workersListedAt = 0;
  private listing = false;
  /** This process's own jobs channel, once it works on runs (`work`). */
  private ownChannel: string | null = null;
  /** Set for PASS_ON_GATHER_MS after a notification passing drives on: those announced meanwhile wait for its end. */
  private passOnTimer: ReturnType<typeof setTimeout> | null = null;
  /** The latest drive announced while the timer ran, passed on (standing for all of them) when it ends. */
  private passOnPending: string | null = null;
  /** The ends and lease renewals of this process's drives, one statement at a time. */
  private readonly driveWrites: DriveWrites;

  constructor(
    private readonly statements: StatementRunner,
    private readonly options: RunQueueOptions,
  ) {
    this.driveWrites = new DriveWrites(statements);
  }

  /** The queue of a PostgreSQL database opened with `openDatabase` (its statement pool). */
  static of(database: StudioDatabase, options: RunQueueOptions): RunQueue {
    const statements = postgresStatements(database);
    if (!statements) throw new Error("The run queue needs a PostgreSQL database opened with openDatabase");
    return new RunQueue(statements, options);
  }

  /** Runs waiting for a worker and runs driven now (the /metrics gauges). */
  async jobCounts(): Promise<{ waiting: number; active: number }> {
    const { rows } = await this.statements.run<{ waiting: number; active: number }>(COUNT_DRIVES, []);
    return { waiting: rows[0]?.waiting ?? 0, active: rows[0]?.active ?? 0 };
  }

  /** Asks for a drive of `runId` inside Prisma's `transaction`: asked for if and only if the transaction commits. */
  sendWithin(transaction: TransactionLike, runId: string): Promise<void> {
    return this.sendThrough(prismaExecutor(transaction), runId);
  }

  /** The same through any transaction that runs SQL (one statement). */
  async sendThrough(db: SqlExecutor, runId: string): Promise<void> {
    const { text, values } = combineWrites(this.requestWrites(runId));
    await db.executeSql(text, values);
  }

  /**
   * The writes that ask for a drive of `runId` and announce it to the next working process (the notification is
   * delivered on commit, with the row): for a run's creation, which writes them in its own statement.
   */
  requestWrites(runId: string): Write[] {
    return [
      { sql: REQUEST_DRIVE, values: [runId] },
      { sql: ANNOUNCE_DRIVE, values: [this.nextWorkerChannel(), runId] },
    ];
  }

  /** The same outside any transaction (a run copied in while running, by scripts/copy-database.ts). */
  send(runId: string): Promise<void> {
    return this.sendThrough(statementExecutor(this.statements), runId);
  }

  /**
   * A drive was announced, to this process (`toThisProcess`) or to all: with
   * a slot idle this process fetches; with none, a request sent to it is
   * passed on to every process, one of which takes it. A process that only
   * serves has no slots and hears only what is sent to all: it does nothing.
   */
  jobSent(runId: string, toThisProcess: boolean): void {
    if (this.freeSlots() > 0) return this.fetch();
    if (!toThisProcess || this.slots === 0) return;
    // The only working process (as last listed): nobody else could take it, and a slot here fetches again as it finishes.
    if (this.onlyWorkingProcess()) return;
    this.passOn(runId);
  }

  /**
   * Tells every process that a drive waits: at once when nothing was passed on in the last PASS_ON_GATHER_MS, else
   * once that time is up, for every drive announced here meanwhile. A process that hears it takes the oldest due
   * drives, as many as it has idle slots, whichever run the notification names.
   */
  private passOn(runId: string): void {
    if (this.passOnTimer) {
      this.passOnPending = runId;
      return;
    }
    this.notifyAll(runId);
    // A stopping process gathers nothing: what it is sent now goes at once, before its connections close.
    if (this.stopping) return;
    this.passOnTimer = setTimeout(() => {
      this.passOnTimer = null;
      const pending = this.passOnPending;
      this.passOnPending = null;
      if (pending !== null) this.passOn(pending);
    }, PASS_ON_GATHER_MS);
    this.passOnTimer.unref();
  }

  private notifyAll(runId: string): void {
    this.statements.run(NOTIFY, [JOBS_CHANNEL, runId]).catch((error: unknown) => this.options.log(`could not pass on the drive of run ${runId}`, error));
  }

  /** Notifications may have been missed (the listening connection broke): look now. */
  wakeAll(): void {
    this.fetch();
  }

  /**
   * Drives runs, `concurrency` at a time: `driveRun` resolves when the run has
   * finished or no longer needs a worker (it waits for a person). Its signal
   * aborts when the drive's lease was lost (another worker may be taking the
   * run over) or when `stop`'s grace ran out: stop driving.
   */
  work(concurrency: number, driveRun: DriveRun, { backstopMs = BACKSTOP_POLL_MS, channel }: { backstopMs?: number; channel?: string } = {}): void {
    // Its own jobs channel (the one its notification connection listens on): how it finds itself in the list of workers.
    this.ownChannel = channel ?? null;
    this.slots = concurrency;
    this.driveRun = driveRun;
    this.backstop = setInterval(() => this.fetch(), backstopMs);
    this.backstop.unref();
    this.renewal = setInterval(() => void this.renewLeases(), RENEW_EVERY_MS);
    this.renewal.unref();
    this.fetch();
  }

  /** Takes no more drives; those held get `graceMs` to end before their signals abort. Resolves once all have ended. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    if (this.backstop) clearInterval(this.backstop);
    // What waits to be passed on goes now: nobody here will take it.
    if (this.passOnTimer) clearTimeout(this.passOnTimer);
    this.passOnTimer = null;
    if (this.passOnPending !== null) this.notifyAll(this.passOnPending);
    this.passOnPending = null;
    const late = setTimeout(() => {
      for (const drive of this.held.values()) drive.controller.abort(new Error("the process is shutting down"));
    }, graceMs);
    // Leases are renewed meanwhile: a drive still ending its steps keeps its run.
    while (this.ends.size > 0) await Promise.all([...this.ends]);
    clearTimeout(late);
    if (this.renewal) clearInterval(this.renewal);
  }

  private freeSlots(): number {
    return this.stopping || !this.driveRun ? 0 : this.slots - this.held.size;
  }

  /** Fetches for the idle slots, one fetch at a time (a wake during one fetches again after it). */
  private fetch(): void {
    if (this.freeSlots() <= 0) return;
    if (this.fetching) {
      this.fetchAgain = true;
      return;
    }
    this.fetching = true;
    void this.take().finally(() => {
      this.fetching = false;
      if (this.fetchAgain) {
        this.fetchAgain = false;
        this.fetch();
      }
    });
  }

  private async take(): Promise<void> {
    let taken: TakenDrive[];
    try {
      taken = (await this.statements.run<TakenDrive>(TAKE_DRIVES, [this.freeSlots(), LEASE_SECONDS])).rows;
    } catch (error) {
      // The database is away: the backstop looks again.
      this.options.log("could not fetch runs to drive", error);
      return;
    }
    for (const drive of taken) this.begin(drive);
  }

  private begin(taken: TakenDrive): void {
    const drive: HeldDrive = { ...taken, controller: new AbortController() };
    this.held.set(drive.driver, drive);
    const end = this.drive(drive).finally(() => {
      this.held.delete(drive.driver);
      this.ends.delete(end);
      // A drive may be waiting (asked for while every slot was busy): look at once, not a poll later.
      this.fetch();
    });
    this.ends.add(end);
  }

  private async drive({ runId, driver, controller }: HeldDrive): Promise<void> {
    let failure: unknown;
    try {
      await this.driveRun!(runId, controller.signal, driver);
    } catch (error) {
      failure = error;
    }
    try {
      if (failure === undefined) await this.driveWrites.end({ runId, driver });
      else {
        this.options.log(`run ${runId} is driven again after a backoff`, failure);
        await this.statements.run(FAIL_DRIVE, [runId, driver, MAX_BACKOFF_SECONDS]);
      }
    } catch (error) {
      // Its lease runs out, and whichever worker takes the run next finds where it stands.
      this.options.log(`could not record the end of run ${runId}'s drive`, error);
    }
  }

  /** Renews the held drives' leases; a drive whose lease was lost (another took the run over) is told to stop. */
  private async renewLeases(): Promise<void> {
    const held = [...this.held.values()];
    if (held.length === 0) return;
    let renewed: Set<string>;
    try {
      renewed = await this.driveWrites.renew(held, LEASE_SECONDS);
    } catch (error) {
      // Nothing learned: the drives go on (their writes wait for the database too) and the next renewal tries again.
      this.options.log("could not renew the leases of the runs driven here", error);
      return;
    }
    for (const drive of held) {
      if (!renewed.has(drive.driver) && this.held.get(drive.driver) === drive) drive.controller.abort(new Error("its lease was lost: another worker may be driving the run"));
    }
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
      // This database's processes only: a notification reaches listeners of its own database, so a worker of another
      // studio (or another test's database) on the same server could never hear a drive sent to its channel.
      const { rows } = await this.statements.run<{ channel: string }>(LIST_WORKER_CHANNELS, [WORKER_CHANNEL_PREFIX.length, WORKER_CHANNEL_PREFIX]);
      this.workerChannels = rows.map((row) => row.channel).filter(isWorkerChannel);
      this.workersListedAt = Date.now();
    } catch {
      // Not listed this time: requests go to every process (JOBS_CHANNEL) until a listing works.
      this.workerChannels = [];
    } finally {
      this.listing = false;
    }
  }
}
