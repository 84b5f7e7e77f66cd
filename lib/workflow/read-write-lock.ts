/**
 * Lets concurrency-safe steps overlap while an unsafe step runs alone.
 * Writers are served in arrival order and block later readers, so a stream of
 * reads cannot starve a write.
 */
export class ReadWriteLock {
  private readers = 0;
  private writer = false;
  private readonly waiting: { exclusive: boolean; grant: () => void }[] = [];

  async run<T>(exclusive: boolean, work: () => Promise<T>): Promise<T> {
    await this.acquire(exclusive);
    try {
      return await work();
    } finally {
      this.release(exclusive);
    }
  }

  private acquire(exclusive: boolean): Promise<void> {
    if (this.canGrant(exclusive) && this.waiting.length === 0) {
      this.take(exclusive);
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push({ exclusive, grant: resolve }));
  }

  private canGrant(exclusive: boolean): boolean {
    return exclusive ? !this.writer && this.readers === 0 : !this.writer;
  }

  private take(exclusive: boolean): void {
    if (exclusive) this.writer = true;
    else this.readers += 1;
  }

  private release(exclusive: boolean): void {
    if (exclusive) this.writer = false;
    else this.readers -= 1;
    while (this.waiting.length > 0 && this.canGrant(this.waiting[0]!.exclusive)) {
      const next = this.waiting.shift()!;
      this.take(next.exclusive);
      next.grant();
      if (next.exclusive) break;
    }
  }
}
