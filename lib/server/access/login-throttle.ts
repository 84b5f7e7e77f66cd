/**
 * Slows password and token guessing without locking the owner out.
 *
 * Per client address: five wrong attempts in a row are free, then the address
 * waits 30 s, doubling with every further failure up to an hour; a success or
 * an hour without failures forgets it. So a guesser locks out only itself.
 *
 * Per account (the studio has one password and one token): when failures from
 * all addresses pass ACCOUNT_ALARM within the window, guessing is spread over
 * many addresses; then an address that has never signed in successfully gets
 * one attempt per ACCOUNT_SPACING_MS between all of them, while addresses that
 * have signed in before (the owner's) keep their own allowance.
 *
 * Addresses come from the socket (scripts/serve.mjs writes them into
 * X-Forwarded-For, replacing whatever the client sent). Kept in memory, on
 * globalThis so every bundle of the server shares one count.
 */

const FREE_FAILURES = 5;
const FIRST_WAIT_MS = 30_000;
const LONGEST_WAIT_MS = 3_600_000;
const FORGET_AFTER_MS = 3_600_000;
const ACCOUNT_WINDOW_MS = 15 * 60_000;
const ACCOUNT_ALARM = 20;
const ACCOUNT_SPACING_MS = 10_000;
const MOST_ADDRESSES = 10_000;

interface AddressEntry {
  failures: number;
  lastFailureAt: number;
}

interface ThrottleState {
  addresses: Map<string, AddressEntry>;
  knownGood: Set<string>;
  accountFailures: number[];
  lastUnknownAttemptAt: number;
}

const GLOBAL_KEY = Symbol.for("neurosurfer.login-throttle");
type GlobalWithThrottle = typeof globalThis & { [GLOBAL_KEY]?: ThrottleState };

function state(): ThrottleState {
  const holder = globalThis as GlobalWithThrottle;
  holder[GLOBAL_KEY] ??= { addresses: new Map(), knownGood: new Set(), accountFailures: [], lastUnknownAttemptAt: 0 };
  return holder[GLOBAL_KEY];
}

/** Forgets everything (tests). */
export function resetLoginThrottle(): void {
  delete (globalThis as GlobalWithThrottle)[GLOBAL_KEY];
}

function addressWait(entry: AddressEntry | undefined, now: number): number {
  if (!entry || now - entry.lastFailureAt > FORGET_AFTER_MS || entry.failures < FREE_FAILURES) return 0;
  const wait = Math.min(FIRST_WAIT_MS * 2 ** (entry.failures - FREE_FAILURES), LONGEST_WAIT_MS);
  return Math.max(0, entry.lastFailureAt + wait - now);
}

function accountUnderAttack(current: ThrottleState, now: number): boolean {
  current.accountFailures = current.accountFailures.filter((at) => now - at < ACCOUNT_WINDOW_MS);
  return current.accountFailures.length >= ACCOUNT_ALARM;
}

/** Seconds `address` must wait before it may try a password or token, or 0 when it may try now. */
export function loginRetryAfter(address: string, now = Date.now()): number {
  const current = state();
  let wait = addressWait(current.addresses.get(address), now);
  if (!current.knownGood.has(address) && accountUnderAttack(current, now)) {
    wait = Math.max(wait, current.lastUnknownAttemptAt + ACCOUNT_SPACING_MS - now);
  }
  return wait > 0 ? Math.ceil(wait / 1000) : 0;
}

/** Call before checking a password or token that `loginRetryAfter` allowed. */
export function recordLoginAttempt(address: string, now = Date.now()): void {
  const current = state();
  if (!current.knownGood.has(address)) current.lastUnknownAttemptAt = now;
}

/** Returns how many failures in a row `address` now has. */
export function recordLoginFailure(address: string, now = Date.now()): number {
  const current = state();
  const entry = current.addresses.get(address);
  const failures = entry && now - entry.lastFailureAt <= FORGET_AFTER_MS ? entry.failures + 1 : 1;
  current.addresses.delete(address);
  if (current.addresses.size >= MOST_ADDRESSES) current.addresses.delete(current.addresses.keys().next().value!);
  current.addresses.set(address, { failures, lastFailureAt: now });
  current.accountFailures.push(now);
  return failures;
}

export function recordLoginSuccess(address: string): void {
  const current = state();
  current.addresses.delete(address);
  if (current.knownGood.size < MOST_ADDRESSES) current.knownGood.add(address);
}
