import type { ShellProcess } from "./shell-process";

/** A command started with `background: true`. */
export interface BackgroundJob {
  id: string;
  command: string;
  /** Absolute folder it runs in. */
  cwd: string;
  /** The root folder of the step that started it; other steps cannot see it. */
  root: string;
  process: ShellProcess;
  /** When it ended, for pruning; `null` while running. */
  endedAt: number | null;
}

/** How long a finished job stays available to `status`. */
export const FINISHED_JOB_RETENTION_MS = 30 * 60 * 1000;
/** Most finished jobs kept at once; the oldest go first. */
export const MAX_FINISHED_JOBS = 50;
/** Most jobs running at once in this process. */
export const MAX_RUNNING_JOBS = 20;

/**
 * The background jobs of this server process, by id ("job-1", "job-2", ...).
 * Finished jobs are kept for a bounded time so their output can be read.
 */
export class JobTable {
  private readonly jobs = new Map<string, BackgroundJob>();
  private nextNumber = 1;

  add(entry: Omit<BackgroundJob, "id" | "endedAt">): BackgroundJob {
    this.prune();
    const job: BackgroundJob = { ...entry, id: `job-${this.nextNumber++}`, endedAt: null };
    this.jobs.set(job.id, job);
    void job.process.done.then(() => {
      job.endedAt = Date.now();
      this.prune();
    });
    return job;
  }

  get(id: string): BackgroundJob | undefined {
    this.prune();
    return this.jobs.get(id);
  }

  /** Jobs started under `root`, newest first. */
  list(root?: string): BackgroundJob[] {
    this.prune();
    return [...this.jobs.values()].filter((job) => root === undefined || job.root === root).reverse();
  }

  runningCount(): number {
    return [...this.jobs.values()].filter((job) => job.process.running).length;
  }

  /** Stops every running job; used when the server process exits. */
  stopAll(): void {
    for (const job of this.jobs.values()) job.process.stop("killed");
  }

  private prune(now = Date.now()): void {
    const finished = [...this.jobs.values()].filter((job) => job.endedAt !== null);
    const excess = finished.length - MAX_FINISHED_JOBS;
    finished.forEach((job, index) => {
      if (index < excess || now - (job.endedAt ?? now) > FINISHED_JOB_RETENTION_MS) this.jobs.delete(job.id);
    });
  }
}

const GLOBAL_KEY = Symbol.for("neurosurfer.run-command.jobs");
type GlobalWithJobs = typeof globalThis & { [GLOBAL_KEY]?: JobTable };

/**
 * The one job table of this process. Kept on `globalThis` so a reloaded
 * module (Next.js dev) still finds the jobs it started.
 */
export function jobTable(): JobTable {
  const holder = globalThis as GlobalWithJobs;
  let table = holder[GLOBAL_KEY];
  if (!table) {
    const created = new JobTable();
    table = created;
    holder[GLOBAL_KEY] = created;
    // A normal exit sends the jobs their SIGTERM first; whatever ignores it dies with the
    // server anyway, as does everything when the server is SIGKILLed (containment.ts).
    process.once("exit", () => created.stopAll());
  }
  return table;
}
