import { spawn, type ChildProcess } from "node:child_process";
import { Socket } from "node:net";
import type { SandboxLimits } from "./types";
import { EMPTY_ENVIRONMENT, workerCommand } from "./worker-command";

/** What the worker says went wrong; the studio words it (error-messages.ts). Positions are QuickJS's, in the wrapped source. */
export interface WorkerErrorRecord {
  kind: "syntax" | "exception" | "time-limit" | "memory-limit" | "stack-limit" | "output-limit" | "not-json" | "worker-crashed";
  text?: string;
  thrownValue?: boolean;
  line?: number;
  column?: number;
}

export type WorkerItem = { ok: true; json: string; ms: number } | { ok: false; error: WorkerErrorRecord; ms: number };

export type WorkerReply = { ok: true; items: WorkerItem[]; retire: boolean } | { ok: false; error: WorkerErrorRecord; retire: boolean };

export interface WorkerRequest {
  /** The author's code inside its wrapper (code-wrapper.ts). */
  source: string;
  /** The scope's values as a JSON array, in parameter order. */
  argumentsJson: string;
  /** For runEach: the items as a JSON array; null for a single run. */
  itemsJson: string | null;
  itemCount: number;
  limits: SandboxLimits;
}

/** Why a worker ended under a job: its wall time ran out, it was stopped (a cancel, close), or it died on its own. */
export type WorkerEnd = { ended: "timed-out" | "stopped" | "crashed"; detail: string };

type Message = { type: "ready" } | ({ type: "result"; id: number } & WorkerReply);

interface Running {
  id: number;
  settle: (result: WorkerReply | WorkerEnd) => void;
  timer: NodeJS.Timeout;
}

/** How long a worker may take to load QuickJS before it is given up on (a loaded 2-core machine included). */
const STARTUP_TIMEOUT_MS = 30_000;
/** The last part of a worker's stderr kept for an error message (a failed `require`). */
const STDERR_KEPT = 2_000;

/**
 * One worker process: QuickJS loaded once, then one job at a time. The wall time of each job is the studio's
 * backstop for whatever QuickJS's interrupt does not reach (a long built-in call): past it, the process is
 * SIGKILLed and the job ends `timed-out`. A worker that ends for any reason ends its job with the reason.
 */
export class SandboxWorker {
  private readonly child: ChildProcess;
  private running: Running | null = null;
  private nextId = 0;
  private ending: WorkerEnd | null = null;
  private stderr = "";
  private readonly startupTimer: NodeJS.Timeout;
  /** Resolves true when QuickJS is loaded, false when the process ended first. */
  readonly ready: Promise<boolean>;
  /** Resolves once the process has gone. */
  readonly exited: Promise<void>;

  constructor() {
    const command = workerCommand();
    this.child = spawn(command.program, command.args, {
      env: EMPTY_ENVIRONMENT,
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      // Strings cross as they are (no JSON escaping of the JSON texts inside the messages).
      serialization: "advanced",
    });
    // An idle worker does not keep the studio's process alive (a CLI run ends when its work does): a running job's
    // wall timer and a starting worker's start-up timer do.
    this.child.unref();
    this.child.channel?.unref();
    if (this.child.stderr instanceof Socket) this.child.stderr.unref();
    this.child.stderr?.setEncoding("utf8");
    this.child.stderr?.on("data", (text: string) => {
      this.stderr = (this.stderr + text).slice(-STDERR_KEPT);
    });
    let markReady: (ready: boolean) => void = () => {};
    this.ready = new Promise((resolve) => (markReady = resolve));
    this.startupTimer = setTimeout(() => this.stop({ ended: "crashed", detail: `it did not load QuickJS within ${STARTUP_TIMEOUT_MS.toLocaleString("en")} ms` }), STARTUP_TIMEOUT_MS);
    this.child.on("message", (message: Message) => {
      if (message.type === "ready") {
        clearTimeout(this.startupTimer);
        markReady(true);
      } else if (message.type === "result") this.settle(message);
    });
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => {
        clearTimeout(this.startupTimer);
        const detail = this.stderr.trim() ? `: ${this.stderr.trim()}` : "";
        this.stop({ ended: "crashed", detail: `${signal ?? `exit code ${code}`}${detail}` });
        markReady(false);
        resolve();
      });
      // A process that could not start has no exit of its own; `on`, not `once`: a second `error` event with no
      // listener would throw in the studio's process.
      this.child.on("error", (error) => {
        clearTimeout(this.startupTimer);
        this.stop({ ended: "crashed", detail: error.message });
        markReady(false);
        resolve();
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** False once the process is ending or gone: it takes no more jobs. */
  get usable(): boolean {
    return this.ending === null;
  }

  /** Runs one job; past `wallTimeMs` the process is killed and the job ends `timed-out`. Never rejects. */
  run(request: WorkerRequest, wallTimeMs: number): Promise<WorkerReply | WorkerEnd> {
    if (this.ending) return Promise.resolve(this.ending);
    if (this.running) throw new Error("a sandbox worker runs one job at a time");
    const id = (this.nextId += 1);
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.stop({ ended: "timed-out", detail: `no answer within ${wallTimeMs.toLocaleString("en")} ms` }), wallTimeMs);
      this.running = { id, settle: resolve, timer };
      // With a callback a failed send (the process just died) is reported here, not as an `error` event.
      this.child.send({ id, ...request }, (error) => {
        if (error) this.stop({ ended: "crashed", detail: error.message });
      });
    });
  }

  /** Kills the process (SIGKILL: QuickJS inside a long built-in call runs no handler) and ends its job with `reason`. */
  stop(reason: WorkerEnd): void {
    if (!this.ending) {
      this.ending = reason;
      if (this.child.exitCode === null && this.child.signalCode === null) {
        // Held again until it has gone, so that whoever waits on `exited` (close()) sees it go.
        this.child.ref();
        this.child.kill("SIGKILL");
      }
    }
    const running = this.running;
    if (running) {
      this.running = null;
      clearTimeout(running.timer);
      running.settle(reason);
    }
  }

  private settle(message: { id: number } & WorkerReply): void {
    const running = this.running;
    if (!running || running.id !== message.id) return;
    this.running = null;
    clearTimeout(running.timer);
    const { id: _id, ...reply } = message;
    running.settle(reply);
  }
}
