import type { RunEvent } from "./run-types";

type Listener = (event: RunEvent) => void;

/**
 * Publishes persisted run events to live listeners (the SSE streams) in this
 * process. Only events already in the database are published, so a listener
 * that reads the database and then subscribes misses nothing.
 */
export class RunEventBus {
  private readonly byRun = new Map<string, Set<Listener>>();
  private readonly everything = new Set<Listener>();

  publish(event: RunEvent): void {
    for (const listener of this.byRun.get(event.runId) ?? []) listener(event);
    for (const listener of this.everything) listener(event);
  }

  /** Listens to one run; returns the unsubscribe function. */
  subscribe(runId: string, listener: Listener): () => void {
    let listeners = this.byRun.get(runId);
    if (!listeners) {
      listeners = new Set();
      this.byRun.set(runId, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.byRun.delete(runId);
    };
  }

  /** Listens to every run (the inbox count, the run list). */
  subscribeAll(listener: Listener): () => void {
    this.everything.add(listener);
    return () => this.everything.delete(listener);
  }
}
