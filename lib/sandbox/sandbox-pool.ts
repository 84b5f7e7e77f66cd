import { checkParameterName, wrapCode, type WrappedCode } from "./code-wrapper";
import { cancelledError, sandboxErrorOf, workerEndError } from "./error-messages";
import { SandboxWorker, type WorkerReply, type WorkerRequest } from "./sandbox-worker";
import {
  DEFAULT_SANDBOX_LIMITS,
  describeLimit,
  resolveLimits,
  type JsonValue,
  type SandboxEachJob,
  type SandboxEachOutcome,
  type SandboxError,
  type SandboxJob,
  type SandboxLimits,
  type SandboxOutcome,
  type SandboxPoolOptions,
  type SandboxRunOptions,
} from "./types";

/**
 * Beyond the time limit, how long the studio waits for a worker's answer before killing it: the worker counts the
 * time limit from the job's start in QuickJS, and before and after it come the request's transfer, the runtime's
 * set-up and the results' way back, slower on a loaded machine. Plus a millisecond for every 10,000 characters sent.
 */
const WALL_GRACE_MS = 2_000;
const WALL_MS_PER_CHARACTER = 1 / 10_000;

interface PoolWorker {
  worker: SandboxWorker;
  ready: boolean;
  job: PendingJob | null;
}

type JobResult = { reply: WorkerReply; durationMs: number } | { error: SandboxError; durationMs: number };

interface PendingJob {
  request: WorkerRequest;
  code: string;
  wrapped: WrappedCode;
  signal: AbortSignal | undefined;
  onAbort: () => void;
  resolve: (result: JobResult) => void;
  worker: PoolWorker | null;
  startedAt: number;
  cancelled: boolean;
}

/**
 * Runs JavaScript from workflow authors and models in QuickJS, in worker processes (see worker-command.ts for the
 * outer layers, worker-script.ts and guest-harness.ts for the inner). Workers start when jobs need them, up to
 * `size`, and are reused; a job waits while all are busy. A worker that dies (killed, out of memory, crashed) ends
 * its job with an error and is replaced by the next job that needs one.
 */
export class SandboxPool {
  private readonly size: number;
  private readonly limits: SandboxLimits;
  private readonly workers = new Set<PoolWorker>();
  private readonly queue: PendingJob[] = [];
  private closed = false;

  constructor(options: SandboxPoolOptions = {}) {
    this.size = Math.max(1, Math.floor(options.size ?? 2));
    this.limits = resolveLimits(DEFAULT_SANDBOX_LIMITS, options.limits);
  }

  /** Runs `job.code` once with `job.scope`; never rejects for anything the code does. */
  async run(job: SandboxJob, options: SandboxRunOptions = {}): Promise<SandboxOutcome> {
    const names = Object.keys(job.scope);
    const result = await this.submit(job, names, null, options.signal);
    if ("error" in result) return { ok: false, error: result.error, durationMs: result.durationMs };
    const limits = this.jobLimits(job);
    const wrapped = wrapCode(job.code, names);
    const reply = result.reply;
    if (!reply.ok) return { ok: false, error: sandboxErrorOf(reply.error, limits, job.code, wrapped), durationMs: result.durationMs };
    const item = reply.items[0]!;
    if (!item.ok) return { ok: false, error: sandboxErrorOf(item.error, limits, job.code, wrapped), durationMs: result.durationMs };
    return { ok: true, value: JSON.parse(item.json) as JsonValue, durationMs: result.durationMs };
  }

  /**
   * The same code once per item, in one worker call (fast for 10,000 items): the scope gets `item` and `index`
   * (replacing any it had). The items share one QuickJS context, so the time and memory limits are the call's, and
   * a value one item leaves in the scope or on a global is seen by the next. Per-item failures (an exception, not
   * JSON, too large) are per-item results; a limit of the whole call (time, memory, all results together too large)
   * fails the call. Each result's durationMs is the item's synchronous part, measured in the VM to the millisecond.
   */
  async runEach(job: SandboxEachJob, options: SandboxRunOptions = {}): Promise<SandboxEachOutcome> {
    const names = [...Object.keys(job.scope).filter((name) => name !== "item" && name !== "index"), "item", "index"];
    const result = await this.submit(job, names, job.items, options.signal);
    if ("error" in result) return { ok: false, error: result.error, durationMs: result.durationMs };
    const limits = this.jobLimits(job);
    const wrapped = wrapCode(job.code, names);
    const reply = result.reply;
    if (!reply.ok) return { ok: false, error: sandboxErrorOf(reply.error, limits, job.code, wrapped), durationMs: result.durationMs };
    const results = reply.items.map((item): SandboxOutcome =>
      item.ok ? { ok: true, value: JSON.parse(item.json) as JsonValue, durationMs: item.ms } : { ok: false, error: sandboxErrorOf(item.error, limits, job.code, wrapped), durationMs: item.ms },
    );
    return { ok: true, results, durationMs: result.durationMs };
  }

  /** The worker processes' ids (for tests that check they are gone). */
  get pids(): number[] {
    return [...this.workers].map((entry) => entry.worker.pid).filter((pid): pid is number => pid !== undefined);
  }

  /** Ends every worker (running jobs end `cancelled`, as do queued ones) and waits until they have gone. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) this.finish(job, { error: { kind: "cancelled", message: "the sandbox was closed before the code started" }, durationMs: 0 });
    const exits: Promise<void>[] = [];
    for (const entry of this.workers) {
      if (entry.job) entry.job.cancelled = true;
      entry.worker.stop({ ended: "stopped", detail: "the sandbox was closed" });
      exits.push(entry.worker.exited);
    }
    await Promise.all(exits);
  }

  private jobLimits(job: SandboxJob): SandboxLimits {
    return resolveLimits(this.limits, job.limits);
  }

  private submit(job: SandboxJob, names: string[], items: JsonValue[] | null, signal: AbortSignal | undefined): Promise<JobResult> {
    if (this.closed) return Promise.reject(new Error("the sandbox pool is closed"));
    for (const name of names) checkParameterName(name);
    const limits = this.jobLimits(job);
    const scopeNames = items === null ? names : names.slice(0, -2);
    const argumentsJson = JSON.stringify(scopeNames.map((name) => job.scope[name] ?? null));
    const itemsJson = items === null ? null : JSON.stringify(items);
    // QuickJS would run out of memory parsing it anyway; refused before it crosses to a worker.
    const inputCharacters = argumentsJson.length + (itemsJson?.length ?? 0);
    if (inputCharacters > limits.memoryBytes) {
      return Promise.resolve({
        error: { kind: "memory-limit", message: `the data handed to the code (${inputCharacters.toLocaleString("en")} characters of JSON) is larger than its memory limit of ${describeLimit("memoryBytes", limits.memoryBytes)}` },
        durationMs: 0,
      });
    }
    if (signal?.aborted) return Promise.resolve({ error: cancelledError(false), durationMs: 0 });
    const wrapped = wrapCode(job.code, names);
    return new Promise((resolve) => {
      const pending: PendingJob = {
        request: { source: wrapped.source, argumentsJson, itemsJson, itemCount: items?.length ?? 1, limits },
        code: job.code,
        wrapped,
        signal,
        resolve,
        worker: null,
        startedAt: 0,
        cancelled: false,
        onAbort: () => this.cancel(pending),
      };
      signal?.addEventListener("abort", pending.onAbort, { once: true });
      this.queue.push(pending);
      this.pump();
    });
  }

  private cancel(job: PendingJob): void {
    const queued = this.queue.indexOf(job);
    if (queued !== -1) {
      this.queue.splice(queued, 1);
      this.finish(job, { error: cancelledError(false), durationMs: 0 });
    } else if (job.worker) {
      job.cancelled = true;
      job.worker.worker.stop({ ended: "stopped", detail: "the job was cancelled" });
    }
  }

  private finish(job: PendingJob, result: JobResult): void {
    job.signal?.removeEventListener("abort", job.onAbort);
    job.resolve(result);
  }

  /** Hands queued jobs to idle workers, and starts workers (up to `size`) for jobs the starting ones cannot take. */
  private pump(): void {
    if (this.closed) return;
    for (const entry of this.workers) {
      if (this.queue.length === 0) break;
      if (entry.ready && !entry.job && entry.worker.usable) this.dispatch(entry, this.queue.shift()!);
    }
    const starting = [...this.workers].filter((entry) => !entry.ready && entry.worker.usable).length;
    let toStart = Math.min(this.queue.length - starting, this.size - this.workers.size);
    while (toStart > 0) {
      this.startWorker();
      toStart -= 1;
    }
  }

  private startWorker(): void {
    let worker: SandboxWorker;
    try {
      worker = new SandboxWorker();
    } catch (error) {
      // The command could not be made (the QuickJS packages not found): no worker will start, so none is waited for.
      this.failQueue(`the sandbox worker could not be started: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const entry: PoolWorker = { worker, ready: false, job: null };
    this.workers.add(entry);
    void worker.ready.then((ready) => {
      if (ready) {
        entry.ready = true;
        this.pump();
      }
    });
    void worker.exited.then(() => {
      this.workers.delete(entry);
      // A worker that could not even load QuickJS will not be the last to fail: the queued jobs end with why,
      // rather than wait on a start that fails again and again.
      if (!entry.ready) this.failQueue("the sandbox worker process could not start");
      this.pump();
    });
  }

  private failQueue(message: string): void {
    for (const job of this.queue.splice(0)) this.finish(job, { error: { kind: "worker-crashed", message }, durationMs: 0 });
  }

  private dispatch(entry: PoolWorker, job: PendingJob): void {
    entry.job = job;
    job.worker = entry;
    job.startedAt = performance.now();
    const sent = job.request.argumentsJson.length + (job.request.itemsJson?.length ?? 0) + job.request.source.length;
    const wallTimeMs = job.request.limits.timeMs + WALL_GRACE_MS + Math.ceil(sent * WALL_MS_PER_CHARACTER);
    void entry.worker.run(job.request, wallTimeMs).then((result) => {
      entry.job = null;
      job.worker = null;
      const durationMs = performance.now() - job.startedAt;
      if ("ended" in result) this.finish(job, { error: workerEndError(result, job.request.limits, job.cancelled), durationMs });
      else {
        // Retired (out of memory, or QuickJS's state in doubt): gone before the next job could be handed to it.
        if (result.retire) entry.worker.stop({ ended: "stopped", detail: "retired" });
        this.finish(job, { reply: result, durationMs });
      }
      this.pump();
    });
  }
}

let shared: SandboxPool | null = null;

/** The studio's pool, created on first use with the default size and limits. */
export function sharedSandboxPool(): SandboxPool {
  shared ??= new SandboxPool();
  return shared;
}
