import type { Clock } from "../clock";

interface Sleeper {
  wakeAt: number;
  resolve: () => void;
}

/**
 * A clock that moves only when a test says so: `advance(ms)` wakes every
 * sleeper whose time has come, in order. `sleepers` says how many wait, so a
 * test can wait for the engine to be asleep before moving time on.
 *
 * @example
 *   const clock = new FakeClock();
 *   await waitFor(() => clock.sleepers() === 1);
 *   await clock.advance(1000); // the first retry starts
 */
export class FakeClock implements Clock {
  private current: number;
  private readonly waiting = new Set<Sleeper>();

  constructor(start = Date.parse("2026-12-01T00:00:00.000Z")) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const sleeper: Sleeper = {
        wakeAt: this.current + Math.max(0, ms),
        resolve: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.waiting.delete(sleeper);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.add(sleeper);
    });
  }

  /** How many sleeps are under way. */
  sleepers(): number {
    return this.waiting.size;
  }

  /** The times the sleepers wake at, soonest first, as milliseconds from now. */
  wakesIn(): number[] {
    return [...this.waiting].map((sleeper) => sleeper.wakeAt - this.current).sort((a, b) => a - b);
  }

  /** Moves time on by `ms`, waking each sleeper whose time has come (and letting what it starts run) in order. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      const due = [...this.waiting].filter((sleeper) => sleeper.wakeAt <= target).sort((a, b) => a.wakeAt - b.wakeAt)[0];
      if (!due) break;
      this.current = Math.max(this.current, due.wakeAt);
      this.waiting.delete(due);
      due.resolve();
      // Let what the wake-up starts take its next steps before the next sleeper wakes.
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.current = target;
  }
}
