import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { Write } from "./run-commit-writes";

/*
 * The embedded studio's writes off the thread that serves HTTP. A run's
 * commits (and a run's creation) are SQLite statements that cost most of what
 * a cheap step costs; on the event loop they leave the machine's other core
 * idle while requests wait. Here a worker thread with a connection of its own
 * to the same file writes them, in group commits: while one transaction is
 * being written, the commits that arrive meanwhile gather, and go together in
 * the next, each in its own savepoint so that one failing commit fails alone.
 *
 * SQLite lets one connection write at a time. The writer begins with
 * BEGIN IMMEDIATE, and so do the main connection's transactions (database.ts),
 * so neither ever holds a read snapshot that another commit makes stale
 * (SQLITE_BUSY_SNAPSHOT): each waits its turn on the busy timeout instead.
 */

/** How long the writer waits for the main connection's transaction to end; as long as an interactive transaction may last (BUSY_TRANSACTION). */
const WRITER_BUSY_TIMEOUT_MS = 30_000;

/**
 * One transaction's commits as the thread receives them. Cloning a nest of
 * arrays for every message cost the serving thread about as much as the
 * writes it moved away, so the commits travel as one string (a copy), in a
 * small length-prefixed form:
 *   unit  := "u" <writes> ";" write*
 *   write := <statement index> ";" ("-" | "m" <length> ":" <mustChange text>) <values> ";" value*
 *   value := "z" (null) | "n" <number> ";" | "b" <bigint> ";" | "s" <length> ":" <text>
 * Lengths count UTF-16 code units, as String.length and slice do.
 */
interface Batch {
  id: number;
  /** Statement texts the thread has not seen yet, in index order. */
  texts: string[];
  units: string;
}

/** Where a SQLite client's run writes go (its creation, its commits): group commits, each commit in a savepoint of its own. */
export interface RunWrites {
  /** Resolves once `writes` are committed, together with whatever other commits shared the transaction; rejects with the error that undid them (and only them). */
  commit(writes: Write[]): Promise<void>;
  /** Transactions written so far: how many group commits the writes took. */
  readonly transactions: number;
  /** Lets what is held be written, then stops; a later commit starts again. */
  close(): Promise<void>;
}

type Failure = { message: string; code?: string };
type Answer = { id: number; outcomes: (Failure | null)[] } | { id: number; failed: Failure };

interface PendingCommit {
  writes: Write[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** The thread's whole program, run with `eval` (it has no file of its own in the build); better-sqlite3 comes from `driver`. */
const WRITER_THREAD = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const database = new Database(workerData.file, { timeout: workerData.busyTimeoutMs });
database.exec(workerData.pragmas);
database.pragma("busy_timeout = " + workerData.busyTimeoutMs);
const texts = [];
const statements = [];
const statement = (index) => (statements[index] ??= database.prepare(texts[index]));
const controls = new Map();
const control = (sql) => {
  let prepared = controls.get(sql);
  if (!prepared) controls.set(sql, (prepared = database.prepare(sql)));
  return prepared;
};
const failure = (error) => ({ message: String((error && error.message) || error), code: error && typeof error.code === "string" ? error.code : undefined });
const decode = (text) => {
  let at = 0;
  const number = () => {
    const end = text.indexOf(";", at);
    const value = text.slice(at, end);
    at = end + 1;
    return value;
  };
  const string = () => {
    const colon = text.indexOf(":", at);
    const start = colon + 1;
    at = start + Number(text.slice(at, colon));
    return text.slice(start, at);
  };
  const units = [];
  while (at < text.length) {
    at += 1;
    const writes = [];
    for (let count = Number(number()); count > 0; count--) {
      const index = Number(number());
      const mustChange = text[at++] === "m" ? string() : null;
      const values = [];
      for (let left = Number(number()); left > 0; left--) {
        const tag = text[at++];
        values.push(tag === "z" ? null : tag === "n" ? Number(number()) : tag === "b" ? BigInt(number()) : string());
      }
      writes.push([index, values, mustChange]);
    }
    units.push(writes);
  }
  return units;
};
const apply = (writes) => {
  for (const [index, values, mustChange] of writes) {
    const { changes } = statement(index).run(...values);
    if (mustChange !== null && changes === 0) throw new Error(mustChange);
  }
};
parentPort.on("message", ({ id, texts: added, units: encoded }) => {
  texts.push(...added);
  try {
    const units = decode(encoded);
    control("BEGIN IMMEDIATE").run();
    const outcomes = [];
    try {
      if (units.length === 1) {
        apply(units[0]);
        outcomes.push(null);
      } else {
        for (const writes of units) {
          control("SAVEPOINT run_commit").run();
          try {
            apply(writes);
            control("RELEASE run_commit").run();
            outcomes.push(null);
          } catch (error) {
            control("ROLLBACK TO run_commit").run();
            control("RELEASE run_commit").run();
            outcomes.push(failure(error));
          }
        }
      }
      control("COMMIT").run();
    } catch (error) {
      if (database.inTransaction) control("ROLLBACK").run();
      throw error;
    }
    parentPort.postMessage({ id, outcomes });
  } catch (error) {
    parentPort.postMessage({ id, failed: failure(error) });
  }
});
`;

/** An error from the thread, with its SQLite code (isUniqueViolation reads it) and message. */
function errorOf(failure: Failure): Error {
  return Object.assign(new Error(failure.message), failure.code ? { code: failure.code } : {});
}

function encodeValue(value: unknown): string {
  if (value === null || value === undefined) return "z";
  if (typeof value === "string") return `s${value.length}:${value}`;
  if (typeof value === "number") return `n${value};`;
  if (typeof value === "bigint") return `b${value};`;
  throw new TypeError(`A value to store must be text, a number or null, not ${typeof value}.`);
}

export class SqliteWriter implements RunWrites {
  private worker: Worker | null = null;
  private readonly sent = new Map<string, number>();
  private queued: PendingCommit[] = [];
  private inFlight: { id: number; commits: PendingCommit[] } | null = null;
  private nextId = 1;
  private flushScheduled = false;
  private idleWaiters: (() => void)[] = [];
  transactions = 0;

  private constructor(
    private readonly file: string,
    private readonly pragmas: string,
    private readonly driver: string,
  ) {}

  /**
   * A writer for the SQLite file at `file`, or null where it cannot run (an
   * in-memory database, or better-sqlite3 not found from the working folder),
   * and the caller then writes on its own connection as before.
   */
  static open(file: string, pragmas: string): SqliteWriter | null {
    if (file === ":memory:" || file === "") return null;
    let driver: string;
    try {
      // The thread has no bundler: it loads the package Node resolves from the project (the folder the studio runs in).
      driver = createRequire(path.join(process.cwd(), "noop.js")).resolve("better-sqlite3");
    } catch {
      return null;
    }
    return new SqliteWriter(file, pragmas, driver);
  }

  commit(writes: Write[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queued.push({ writes, resolve, reject });
      if (!this.inFlight && !this.flushScheduled) {
        this.flushScheduled = true;
        // One turn later: every run's commit issued meanwhile joins the same transaction (later ones gather while it is written).
        setImmediate(() => {
          this.flushScheduled = false;
          if (!this.inFlight) this.sendQueued();
        });
      }
    });
  }

  /** Ends the thread once what it holds is written (a process that closes its database waits for its last commits); a later commit starts another. */
  async close(): Promise<void> {
    if (this.inFlight || this.queued.length > 0 || this.flushScheduled) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    const worker = this.worker;
    this.worker = null;
    this.sent.clear();
    await worker?.terminate();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WRITER_THREAD, {
      eval: true,
      workerData: { file: this.file, pragmas: this.pragmas, driver: this.driver, busyTimeoutMs: WRITER_BUSY_TIMEOUT_MS },
    });
    worker.on("message", (answer: Answer) => this.answered(answer));
    // A thread that died (it could not open the file, say) fails what it held; the next commit starts a new one.
    const lost = (error: unknown) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.sent.clear();
      const reason = error instanceof Error ? error : new Error(`The database writer stopped (${String(error)}).`);
      const commits = [...(this.inFlight?.commits ?? []), ...this.queued.splice(0)];
      this.inFlight = null;
      for (const { reject } of commits) reject(reason);
    };
    worker.on("error", lost);
    worker.on("exit", (code) => lost(new Error(`The database writer stopped (exit code ${code}).`)));
    this.worker = worker;
    return worker;
  }

  private sendQueued(): void {
    const commits = this.queued.splice(0);
    if (commits.length === 0) {
      // Idle: the thread does not keep the process alive, and whoever waits to close it may.
      this.worker?.unref();
      for (const resolve of this.idleWaiters.splice(0)) resolve();
      return;
    }
    const worker = this.thread();
    worker.ref();
    const batch: Batch = { id: this.nextId++, texts: [], units: "" };
    const sent: PendingCommit[] = [];
    for (const commit of commits) {
      try {
        batch.units += this.encodeUnit(commit.writes, batch.texts);
        sent.push(commit);
      } catch (error) {
        // A value SQLite cannot store fails its own commit only.
        commit.reject(error);
      }
    }
    if (sent.length === 0) return this.sendQueued();
    this.inFlight = { id: batch.id, commits: sent };
    this.transactions += 1;
    worker.postMessage(batch);
  }

  /** One commit in the batch's text form (see Batch). */
  private encodeUnit(writes: Write[], texts: string[]): string {
    let text = `u${writes.length};`;
    for (const write of writes) {
      text += `${this.indexOf(write.sql, texts)};${write.mustChange === undefined ? "-" : `m${write.mustChange.length}:${write.mustChange}`}${write.values.length};`;
      for (const value of write.values) text += encodeValue(value);
    }
    return text;
  }

  /** The statement's index on the thread, adding its text to the batch the first time. */
  private indexOf(sql: string, texts: string[]): number {
    let index = this.sent.get(sql);
    if (index === undefined) {
      index = this.sent.size;
      this.sent.set(sql, index);
      texts.push(sql);
    }
    return index;
  }

  private answered(answer: Answer): void {
    const flight = this.inFlight;
    if (!flight || flight.id !== answer.id) return;
    this.inFlight = null;
    if ("failed" in answer) {
      const error = errorOf(answer.failed);
      for (const { reject } of flight.commits) reject(error);
    } else {
      flight.commits.forEach(({ resolve, reject }, index) => {
        const outcome = answer.outcomes[index];
        if (outcome) reject(errorOf(outcome));
        else resolve();
      });
    }
    this.sendQueued();
  }
}
