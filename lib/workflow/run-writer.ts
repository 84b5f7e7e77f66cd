import type { RunCommit, RunStore } from "./run-types";

interface Pending {
  commit: RunCommit;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Serialises one run's writes and groups those that queue up while a write
 * is in flight into one transaction (group commit): order is preserved, each
 * caller learns when its own changes are durable, and a busy run costs one
 * transaction per batch rather than one per event.
 *
 * A write that fails stops the writer: every later write fails with the same
 * error. The run's memory (its next sequence number, its steps) is then ahead
 * of what is stored, and writing on would leave a gap in its events; whoever
 * drives the run next starts again from what is stored.
 */
export class RunWriter {
  private queue: Pending[] = [];
  private flushing = false;
  private failure: { error: unknown } | null = null;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly store: RunStore,
    private readonly runId: string,
  ) {}

  /** Resolves once `commit` is durable. */
  write(commit: RunCommit): Promise<void> {
    if (this.failure) return Promise.reject(this.failure.error);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ commit, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        // One turn later, so what the run does next in this turn (a step's success, the next step's
        // start) joins the same transaction.
        setImmediate(() => void this.flush());
      }
    });
  }

  /**
   * Resolves once every write handed in so far has been committed or has
   * failed: a run that leaves this process (parked, handed back) must not
   * leave a step's result still on its way to the database, where the next
   * drive's claim would refuse it and find the step cut off.
   */
  idle(): Promise<void> {
    if (!this.flushing) return Promise.resolve();
    return new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      const merged: RunCommit = { steps: [], events: [] };
      for (const { commit } of batch) {
        if (commit.driver) merged.driver = commit.driver;
        if (commit.run) merged.run = { ...merged.run, ...commit.run };
        merged.steps.push(...commit.steps);
        merged.events.push(...commit.events);
      }
      try {
        await this.store.commit(this.runId, merged);
        for (const pending of batch) pending.resolve();
      } catch (error) {
        this.failure = { error };
        for (const pending of [...batch, ...this.queue]) pending.reject(error);
        this.queue = [];
      }
    }
    this.flushing = false;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
