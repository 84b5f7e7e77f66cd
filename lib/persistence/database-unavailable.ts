/**
 * Telling "the database could not be reached" (down, restarting, the
 * connection cut) from "the database refused this write" (a constraint, a
 * drive fenced out), and waiting out the first kind.
 *
 * Why it matters: a worker whose step finished while PostgreSQL restarted
 * holds the step's result in memory. Giving up on the first failed commit
 * made every such step "interrupted by a restart" although nothing had
 * restarted but the database; waiting for it to answer again lets the run
 * simply go on. Waiting is safe: a commit carries its drive's fence (the
 * run's driver), so if another worker took the run over meanwhile the late
 * commit is refused, not applied twice.
 */

/** SQLSTATE classes and codes that mean the server is going away, coming up, or full, not that the statement is wrong. */
const UNAVAILABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);
/** Class 08: connection exceptions. */
const CONNECTION_EXCEPTION_CLASS = "08";
/** Node's socket errors on a connection that is refused, reset or cut. */
const SOCKET_ERRORS = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTCONN", "EHOSTUNREACH"]);
/** Prisma's: cannot reach the server, it timed out, it closed the connection. */
const PRISMA_UNAVAILABLE = new Set(["P1001", "P1002", "P1008", "P1017"]);
/** node-postgres says these in words, without a code. */
const UNAVAILABLE_MESSAGES = [/Connection terminated/i, /connection error and is not queryable/i, /Client was closed and is not queryable/i];

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === "string") {
      if (UNAVAILABLE_SQLSTATES.has(code) || SOCKET_ERRORS.has(code) || PRISMA_UNAVAILABLE.has(code)) return true;
      if (/^[0-9A-Z]{5}$/.test(code) && code.startsWith(CONNECTION_EXCEPTION_CLASS)) return true;
    }
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
    current = cause;
  }
  return false;
}

export interface WaitForDatabaseOptions {
  /** How long to keep trying after the first failure before giving up with the last error. */
  windowMs: number;
  /** Said once when the wait begins and once when it ends. */
  log?: (message: string) => void;
  /** What the wait is for, in the log ("run 3f… 's changes"). */
  what: string;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const FIRST_PAUSE_MS = 100;
const LONGEST_PAUSE_MS = 2_000;

/**
 * Runs `work`; while it fails because the database cannot be reached, runs it
 * again (pauses doubling from 100 ms to 2 s) until it succeeds, fails for
 * another reason, or `windowMs` has passed since the first failure.
 */
export async function retryWhileDatabaseUnavailable<T>(work: () => Promise<T>, options: WaitForDatabaseOptions): Promise<T> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  let waitingSince: number | null = null;
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    try {
      const result = await work();
      if (waitingSince !== null) options.log?.(`the database answers again; ${options.what} went through after ${now() - waitingSince} ms`);
      return result;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      if (waitingSince === null) {
        waitingSince = now();
        options.log?.(`the database cannot be reached; ${options.what} wait for it (${Math.round(options.windowMs / 1000)} s at most)`);
      }
      if (now() - waitingSince + pause > options.windowMs) throw error;
      await sleep(pause);
      pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
    }
  }
}
