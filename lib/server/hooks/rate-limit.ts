/**
 * Deliveries per minute per webhook, in this process: a token bucket that
 * holds a minute's worth and refills continuously, so a burst up to the limit
 * passes and a steady flood is held to it.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** Takes one delivery's token for `key`; false when the bucket is empty. `perMinute` 0 means no limit. */
  take(key: string, perMinute: number): boolean {
    if (perMinute <= 0) return true;
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: perMinute, at: now };
    bucket.tokens = Math.min(perMinute, bucket.tokens + ((now - bucket.at) / 60_000) * perMinute);
    bucket.at = now;
    if (this.buckets.size > 10_000) this.buckets.clear();
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** Seconds until `key` has a token again, for Retry-After. */
  retryAfterSeconds(key: string, perMinute: number): number {
    const bucket = this.buckets.get(key);
    if (!bucket || perMinute <= 0) return 0;
    return Math.max(1, Math.ceil(((1 - bucket.tokens) * 60) / perMinute));
  }
}
