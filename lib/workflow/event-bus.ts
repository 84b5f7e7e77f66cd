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
  /** Of `everything`, the listeners that look only at runs' ends. */
  private readonly endingsOnly = new Set<Listener>();

  publish(event: RunEvent): void {
    this.byRun.publish(event.runId, event);
    for (const listener of this.everything) listener(event);
  }

  /**
   * Whether anyone here would hear events of run `runId`, some of which end it (`ending` true), none does (false) or
   * not known (undefined): a process that relays other processes' events need not read those nobody hears.
   */
  wants(runId: string, ending: boolean | undefined): boolean {
    if (this.byRun.has(runId)) return true;
    if (ending !== false) return this.everything.size > 0;
    return this.everything.size > this.endingsOnly.size;
  }

  /** Listens to one run; returns the unsubscribe function. */
  subscribe(runId: string, listener: Listener): () => void {
    return this.byRun.subscribe(runId, listener);
  }

  /**
   * Listens to every run (the metrics, the studio-wide event stream). `endingsOnly`: the listener looks only at events
   * that end a run (it is still called with the others it happens to get).
   */
  subscribeAll(listener: Listener, options: { endingsOnly?: boolean } = {}): () => void {
    this.everything.add(listener);
    if (options.endingsOnly) this.endingsOnly.add(listener);
    return () => {
      this.everything.delete(listener);
      this.endingsOnly.delete(listener);
    };
  }
}
