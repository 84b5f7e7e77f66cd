import pg from "pg";
import { databaseProvider } from "@/lib/persistence/database-provider";
import type { StudioDatabase } from "@/lib/persistence/database";
import { pruneRuns, reclaimSpace, type PruneReport } from "@/lib/persistence/run-retention";

/** How often the retention settings are applied. Hourly: a setting in days needs no finer grain. */
export const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** The first pass waits this long after the start, so a restarting studio resumes its runs before it deletes anything. */
const FIRST_PASS_AFTER_MS = 30_000;
/** A pass asked for by a changed setting waits this long, so a few saves in a row make one pass. */
const SOON_MS = 2_000;
/** The advisory lock's key text: on PostgreSQL one process prunes at a time, the others skip that pass. */
const LOCK_KEY = "neurosurfer:run-retention";

export interface RetentionJob {
  /** Prunes shortly (after a changed setting), instead of at the next hourly pass. */
  pruneSoon(): void;
  /** Stops the timer and the pass under way (between batches). */
  stop(): void;
}

/**
 * Applies the retention settings in the background: a pass shortly after the start, then hourly, each deleting
 * in small batches that yield to the event loop between them (lib/persistence/run-retention.ts). A pass never
 * overlaps another in this process; on PostgreSQL a session advisory lock, held on a connection of its own for
 * the pass, keeps other processes' passes out (one that finds it taken skips its turn). Timers never keep the
 * process alive.
 */
export function startRetention(options: { database: StudioDatabase; url: string; log: (message: string, error?: unknown) => void }): RetentionJob {
  const { database, url, log } = options;
  const stopping = new AbortController();
  let running: Promise<void> | null = null;
  let again = false;

  const pass = async (): Promise<void> => {
    const report = databaseProvider(url) === "postgresql" ? await underLock(url, log, () => prune()) : await prune();
    if (report && report.runsDeleted > 0) {
      log(`retention removed ${report.runsDeleted} run(s) in ${report.batches} batch(es)${report.keptGoing > 0 ? `; ${report.keptGoing} kept while a run they called goes on` : ""}`);
    }
  };
  const prune = async (): Promise<PruneReport> => {
    const report = await pruneRuns(database, { signal: stopping.signal, log });
    if (report.runsDeleted > 0 && !stopping.signal.aborted) await reclaimSpace(database);
    return report;
  };
  const run = () => {
    if (stopping.signal.aborted) return;
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .catch((error: unknown) => log("retention could not remove old runs; the next pass tries again", error))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  };

  const first = setTimeout(run, FIRST_PASS_AFTER_MS);
  first.unref();
  const hourly = setInterval(run, PRUNE_EVERY_MS);
  hourly.unref();
  let soon: NodeJS.Timeout | null = null;
  return {
    pruneSoon() {
      if (soon) clearTimeout(soon);
      soon = setTimeout(run, SOON_MS);
      soon.unref();
    },
    stop() {
      stopping.abort();
      clearTimeout(first);
      clearInterval(hourly);
      if (soon) clearTimeout(soon);
    },
  };
}

/** Runs `work` while holding the retention lock on PostgreSQL; null (nothing done) when another process holds it. */
async function underLock<T>(url: string, log: (message: string, error?: unknown) => void, work: () => Promise<T>): Promise<T | null> {
  const client = new pg.Client({ connectionString: url, application_name: "studio-retention" });
  // Without a listener a dropped connection would end the process; the pass then fails and the next one tries again.
  client.on("error", (error) => log("retention's lock connection failed", error));
  await client.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked", [LOCK_KEY]);
    if (!rows[0]?.locked) return null;
    // The lock is the connection's: ending it below releases the lock even if the unlock is never sent.
    return await work();
  } finally {
    await client.end().catch(() => {});
  }
}
