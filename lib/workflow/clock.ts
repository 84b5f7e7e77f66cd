/**
 * The time the engine waits by: between a step's attempts, and for a step's
 * time limit. Behind an interface so tests can move time on at will
 * (lib/workflow/testing/fake-clock.ts) instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason once it is aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, Math.max(0, ms));
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

/**
 * A step's time limit, which stands still while the step waits for a person
 * (an approval may take hours; the limit is about the step's own work).
 * `expired` rejects with `reason()` once the step has worked `limitMs`.
 */
export class StepDeadline {
  readonly expired: Promise<never>;
  private remainingMs: number;
  private startedAt = 0;
  private sleeping: AbortController | null = null;
  private paused = 0;
  private stopped = false;
  private expire!: () => void;

  constructor(
    private readonly clock: Clock,
    limitMs: number,
    reason: () => Error,
  ) {
    this.remainingMs = limitMs;
    this.expired = new Promise<never>((_resolve, reject) => {
      this.expire = () => reject(reason());
    });
    // Nobody may be listening when it is stopped before expiring.
    this.expired.catch(() => undefined);
    this.run();
  }

  /** The step waits for a person: the limit stands still (nested waits count once). */
  pause(): void {
    this.paused += 1;
    if (this.paused > 1 || this.stopped || !this.sleeping) return;
    this.remainingMs -= this.clock.now() - this.startedAt;
    this.sleeping.abort();
    this.sleeping = null;
  }

  /** The wait is over: the limit runs on with what was left of it. */
  resume(): void {
    if (this.paused === 0) return;
    this.paused -= 1;
    if (this.paused === 0 && !this.stopped) this.run();
  }

  /** The attempt is over, one way or another. */
  stop(): void {
    this.stopped = true;
    this.sleeping?.abort();
    this.sleeping = null;
  }

  private run(): void {
    const sleeping = new AbortController();
    this.sleeping = sleeping;
    this.startedAt = this.clock.now();
    this.clock.sleep(Math.max(0, this.remainingMs), sleeping.signal).then(
      () => {
        if (!this.stopped && this.sleeping === sleeping) this.expire();
      },
      () => undefined,
    );
  }
}
