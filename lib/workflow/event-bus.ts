import type { RunEvent } from "./run-types";

type Listener = (event: RunEvent) => void;

/** Listeners by key (a run's id, a webhook test listen's id): who to call when something about that key happened in this process. */
export class KeyedListeners<Value> {
  private readonly byKey = new Map<string, Set<(value: Value) => void>>();

  publish(key: string, value: Value): void {
    for (const listener of this.byKey.get(key) ?? []) listener(value);
  }

  /** Whether someone listens on `key` now. */
  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** The keys someone listens on now. */
  keys(): string[] {
    return [...this.byKey.keys()];
  }

  /** Returns the unsubscribe function. */
  subscribe(key: string, listener: (value: Value) => void): () => void {
    let listeners = this.byKey.get(key);
    if (!listeners) {
      listeners = new Set();
      this.byKey.set(key, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.byKey.delete(key);
    };
  }
}

/**
 * Publishes persisted run events to live listeners (the SSE streams) in this
 * process. Only events already in the database are published, so a listener
 * that reads the database and then subscribes misses nothing.
 */
export class RunEventBus {
  private readonly byRun = new KeyedListeners<RunEvent>();
  private readonly everything = new Set<Listener>();
  /** Of `everything`, the listeners that look only at the ends of some runs: which runs, for each. */
  private readonly endsOnly = new Map<Listener, (runId: string) => boolean>();

  publish(event: RunEvent): void {
    this.byRun.publish(event.runId, event);
    for (const listener of this.everything) listener(event);
  }

  /**
   * Whether anyone here would hear events of run `runId`, some of which end it (`ending` true), none does (false) or
   * not known (undefined): a process that relays other processes' events need not read those nobody hears.
   */
  wants(runId: string, ending: boolean | undefined): boolean {
    if (this.byRun.has(runId) || this.everything.size > this.endsOnly.size) return true;
    if (ending === false) return false;
    for (const endsOf of this.endsOnly.values()) if (endsOf(runId)) return true;
    return false;
  }

  /** Listens to one run; returns the unsubscribe function. */
  subscribe(runId: string, listener: Listener): () => void {
    return this.byRun.subscribe(runId, listener);
  }

  /**
   * Listens to every run (the metrics, the studio-wide event stream). `endsOf`: the listener looks only at the events
   * that end the runs this accepts (asked when they end; it is still called with whatever else it happens to get).
   */
  subscribeAll(listener: Listener, options: { endsOf?: (runId: string) => boolean } = {}): () => void {
    this.everything.add(listener);
    if (options.endsOf) this.endsOnly.set(listener, options.endsOf);
    return () => {
      this.everything.delete(listener);
      this.endsOnly.delete(listener);
    };
  }
}
