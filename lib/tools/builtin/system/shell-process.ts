import { spawn, type ChildProcess } from "node:child_process";
import { detectContainment } from "./containment";
import { OutputBuffer } from "./output-buffer";


/** Why a process ended: on its own, or stopped by us (and why). */
export type ShellEnding = "exited" | "timed_out" | "cancelled" | "killed" | "spawn_failed";

export interface ShellOutcome {
  ending: ShellEnding;
  /** The shell's exit code, when it exited on its own. */
  exitCode: number | null;
  /** The signal that ended the shell, if any. */
  signal: NodeJS.Signals | null;
  /** Why it could not start, for `spawn_failed`. */
  error?: string;
  durationMs: number;
}

export interface ShellOptions {
  command: string;
  /** Absolute, already confined folder. */
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  /** Aborting it stops the whole process group. */
  signal?: AbortSignal;
  /** Called with every chunk of output as it arrives. */
  onOutput?: (stream: "stdout" | "stderr", text: string) => void;
}

/** How long a stopped group gets between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 1_000;
/** How long to wait for the output pipes to close once the shell has exited. */
const CLOSE_GRACE_MS = 2_000;


/**
 * One `bash -c` command in its own process group and, where the machine
 * allows it, its own PID namespace tied to the studio (see containment.ts),
 * so a timeout, a cancellation, a kill or the studio's death stops it with
 * everything it started, daemonised processes included. Whatever the command
 * leaves running when the shell exits is stopped too.
 */
export class ShellProcess {
  readonly stdout = new OutputBuffer();
  readonly stderr = new OutputBuffer();
  readonly startedAt = Date.now();
  /** Settles once the shell has ended and its output is complete; never rejects. */
  readonly done: Promise<ShellOutcome>;
  private outcome: ShellOutcome | null = null;
  private stopReason: Exclude<ShellEnding, "exited" | "spawn_failed"> | null = null;
  private readonly child: ChildProcess;
  private readonly timers: NodeJS.Timeout[] = [];

  private constructor(private readonly options: ShellOptions) {
    const [program, ...prefix] = [...detectContainment().prefix, "/bin/bash", "-c", options.command];
    this.child = spawn(program!, prefix, {
      cwd: options.cwd,
      // NodeJS.ProcessEnv is augmented with NODE_ENV by Next; a command must not inherit even that.
      env: options.env as NodeJS.ProcessEnv,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.done = this.watch();
  }

  static start(options: ShellOptions): ShellProcess {
    return new ShellProcess(options);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.outcome === null;
  }

  /** The outcome once ended, else `null`. */
  get result(): ShellOutcome | null {
    return this.outcome;
  }

  /**
   * Stops the whole process group: SIGTERM, then SIGKILL after a grace period.
   * The SIGKILL reaches `unshare`, whose death ends the namespace and so what
   * left the group with setsid(); the namespace's shell ignores the SIGTERM
   * (the kernel spares a namespace's first process signals it has no handler for).
   */
  stop(reason: "timed_out" | "cancelled" | "killed"): void {
    if (this.outcome || this.stopReason) return;
    this.stopReason = reason;
    this.signalGroup("SIGTERM");
    this.later(KILL_GRACE_MS, () => this.signalGroup("SIGKILL"));
  }

  private watch(): Promise<ShellOutcome> {
    return new Promise<ShellOutcome>((resolve) => {
      const { child, options } = this;
      let exitCode: number | null = null;
      let exitSignal: NodeJS.Signals | null = null;
      let spawnError: string | undefined;

      const finish = () => {
        if (this.outcome) return;
        for (const timer of this.timers) clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
        // Whatever the command left behind goes with it.
        this.signalGroup("SIGKILL");
        child.stdout?.destroy();
        child.stderr?.destroy();
        const ending: ShellEnding = spawnError !== undefined ? "spawn_failed" : (this.stopReason ?? "exited");
        this.outcome = {
          ending,
          exitCode,
          signal: exitSignal,
          ...(spawnError !== undefined ? { error: spawnError } : {}),
          durationMs: Date.now() - this.startedAt,
        };
        resolve(this.outcome);
      };
      const onAbort = () => this.stop("cancelled");

      for (const [name, stream] of [["stdout", child.stdout], ["stderr", child.stderr]] as const) {
        stream?.setEncoding("utf8");
        stream?.on("data", (text: string) => {
          this[name].append(text);
          options.onOutput?.(name, text);
        });
      }
      child.on("error", (error) => {
        spawnError = error.message;
        finish();
      });
      child.on("exit", (code, signal) => {
        exitCode = code;
        exitSignal = signal;
        // Anything the command left running may hold the pipes open: stop it
        // now rather than wait for it forever, and give its output a moment to drain.
        this.signalGroup("SIGTERM");
        this.later(CLOSE_GRACE_MS, finish);
      });
      child.on("close", finish);

      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener("abort", onAbort, { once: true });
      this.later(options.timeoutMs, () => this.stop("timed_out"));
    });
  }

  private later(ms: number, action: () => void): void {
    const timer = setTimeout(action, ms);
    timer.unref();
    this.timers.push(timer);
  }

  private signalGroup(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      // A negative pid signals the whole group the detached shell leads.
      process.kill(-pid, signal);
    } catch {
      // ESRCH: the group is already gone.
    }
  }
}
