/** Failed sign-ins allowed per address per window before answering 429. */
const MAX_FAILURES = 5;
const WINDOW_MS = 60_000;
const failures = new Map<string, { count: number; since: number }>();

/** Seconds to wait before trying again, or 0 when a sign-in may be tried now. */
export function loginRetryAfter(address: string, now = Date.now()): number {
  const entry = failures.get(address);
  if (!entry || now - entry.since > WINDOW_MS) return 0;
  return entry.count >= MAX_FAILURES ? Math.ceil((entry.since + WINDOW_MS - now) / 1000) : 0;
}

export function recordLoginFailure(address: string, now = Date.now()): void {
  const entry = failures.get(address);
  if (!entry || now - entry.since > WINDOW_MS) failures.set(address, { count: 1, since: now });
  else entry.count += 1;
}

export function clearLoginFailures(address: string): void {
  failures.delete(address);
}
