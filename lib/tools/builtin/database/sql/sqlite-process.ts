import { spawn, type ChildProcess } from "node:child_process";
import { parentDeathPrefix } from "../../system/containment";
import { DatabaseToolError, rowBytes } from "./session";

/**
 * SQLite statements of the sql tool run in a child process, not in the
 * studio's: better-sqlite3 is synchronous, so a runaway statement (an
 * unbounded recursive CTE) would block the studio's event loop, and with it
 * every run and HTTP request, until it ended. A child process can be killed
 * at the timeout or when the run is cancelled.
 *
 * Why a process and not a worker thread: `worker.terminate()` only stops a
 * thread when it next runs JavaScript; inside sqlite3_step it never does, so
 * (tried on Node 24 with better-sqlite3) `terminate()` never resolves and even
 * `process.exit()` waits for the thread. Node's own `node:sqlite` has no
 * interrupt either. SIGKILL stops a process wherever it is, at once.
 *
 * The script is passed with `-e` rather than shipped as a file, so no file
 * path has to survive the Next build; better-sqlite3 is resolved from the
 * working directory, the project root, as the studio's other run-time paths
 * are (migrations.ts, data-folder.ts). It opens the file the way
 * `openSqliteReadOnly` (shared/sqlite-file.ts) does: read-only, must exist,
 * schema read to fail fast on a non-database, `query_only` on.
 */
const CHILD_SCRIPT = String.raw`
"use strict";
let database = null;
const rowBytes = ${rowBytes.toString()};
function run(request) {
  switch (request.operation) {
    case "open": {
      const Database = require("better-sqlite3");
      database = new Database(request.file, { readonly: true, fileMustExist: true });
      database.prepare("SELECT count(*) FROM sqlite_schema").get();
      database.pragma("query_only = ON");
      return null;
    }
    case "all":
      return database.prepare(request.sql).all(...request.parameters);
    case "get":
      return database.prepare(request.sql).get(...request.parameters);
    case "query": {
      const prepared = database.prepare(request.sql);
      if (!prepared.readonly) return { refusal: "writes" };
      if (!prepared.reader) return { refusal: "no rows" };
      prepared.raw(true);
      const columns = prepared.columns().map((column) => ({ name: column.name, type: column.type ?? "" }));
      // Rows are kept until they come to maxBytes (rowBytes, session.ts), then only counted up to the limit.
      const rows = [];
      let truncated = false;
      let bytes = 0;
      let counted = 0;
      let cut = false;
      const iterator = prepared.iterate();
      try {
        for (const row of iterator) {
          if (counted === request.limit) {
            truncated = true;
            break;
          }
          counted += 1;
          if (cut) continue;
          bytes += rowBytes(row);
          // The first row is kept whatever its size: a result always shows its start.
          if (bytes > request.maxBytes && rows.length > 0) {
            cut = true;
            continue;
          }
          rows.push(row);
        }
      } finally {
        iterator.return();
      }
      return { columns, rows, truncated, ...(counted > rows.length ? { cutForSize: { counted } } : {}) };
    }
    default:
      throw new Error("unknown operation " + request.operation);
  }
}
process.on("message", (request) => {
  let reply;
  try {
    reply = { id: request.id, ok: true, value: run(request) };
  } catch (error) {
    reply = { id: request.id, ok: false, message: String((error && error.message) || error), code: error && error.code };
  }
  process.send(reply);
});
// The studio closed the session or went away: nothing to flush on a read-only handle.
process.on("disconnect", () => process.exit(0));
`;

export type SqliteRequest =
  | { operation: "open"; file: string }
  | { operation: "all" | "get"; sql: string; parameters: unknown[] }
  | { operation: "query"; sql: string; limit: number; maxBytes: number };

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string; code?: string };

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** The last part of the child's stderr kept for an error message (a failed `require`). */
const STDERR_KEPT = 2_000;

/**
 * One child process holding one read-only SQLite connection; requests are
 * answered in order. A request that runs past its time limit, or a cancelled
 * signal, kills the process: the request fails and the session is over.
 */
export class SqliteProcess {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private readonly exited: Promise<void>;
  private nextId = 0;
  private ended: Error | null = null;
  private stderr = "";
  private readonly onAbort = () => this.stop(new DatabaseToolError("The database call was cancelled."));

  constructor(private readonly signal: AbortSignal) {
    // Next to no environment: the child needs none, and the studio's holds secrets. Advanced serialization
    // carries BigInt and Buffer values as they are, so rows arrive as better-sqlite3 returned them.
    // Started so that it dies with the studio even in the middle of a statement (a SIGKILLed studio included).
    const [program, ...prefix] = [...parentDeathPrefix(), process.execPath];
    this.child = spawn(program!, [...prefix, "-e", CHILD_SCRIPT], {
      env: { NODE_ENV: process.env.NODE_ENV },
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      serialization: "advanced",
    });
    this.child.stderr?.setEncoding("utf8");
    this.child.stderr?.on("data", (text: string) => {
      this.stderr = (this.stderr + text).slice(-STDERR_KEPT);
    });
    this.child.on("message", (reply: Reply) => this.settle(reply));
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, killedBy) => {
        const detail = this.stderr.trim() ? `: ${this.stderr.trim()}` : "";
        this.stop(new Error(`the SQLite process ended (${killedBy ?? `exit code ${code}`})${detail}`));
        resolve();
      });
      // A process that could not start has no exit of its own; `on`, not `once`: a second
      // `error` event with no listener would throw in the studio's process.
      this.child.on("error", (error) => {
        this.stop(error);
        resolve();
      });
    });
    if (signal.aborted) this.onAbort();
    else signal.addEventListener("abort", this.onAbort, { once: true });
  }

  /** Sends `request`; after `timeoutMs` the process is killed and the request fails with `lateMessage`. */
  request(request: SqliteRequest, timeoutMs: number, lateMessage: string): Promise<unknown> {
    if (this.ended) return Promise.reject(this.ended);
    const id = (this.nextId += 1);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.stop(new DatabaseToolError(lateMessage, "timeout")), timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      // With a callback a failed send (the process just died) is reported here, not as an `error` event.
      this.child.send({ id, ...request }, (error) => {
        if (error) this.stop(error);
      });
    });
  }

  /** The reading process's pid (for tests that check it is gone). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Ends the process and waits until it has gone. */
  async close(): Promise<void> {
    this.stop(new Error("the SQLite session is closed"));
    await this.exited;
  }

  private settle(reply: Reply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    clearTimeout(waiting.timer);
    if (reply.ok) waiting.resolve(reply.value);
    else waiting.reject(Object.assign(new Error(reply.message), reply.code ? { code: reply.code } : {}));
  }

  /** Fails every waiting request with `reason` (each keeps its own if it timed out) and kills the process. */
  private stop(reason: Error): void {
    if (!this.ended) {
      this.ended = reason;
      this.signal.removeEventListener("abort", this.onAbort);
      // SIGKILL, not SIGTERM: a process inside sqlite3_step runs no signal handler of its own anyway,
      // and the handle is read-only, so there is nothing to lose.
      if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
    }
    for (const [id, waiting] of this.pending) {
      this.pending.delete(id);
      clearTimeout(waiting.timer);
      waiting.reject(reason);
    }
  }
}
