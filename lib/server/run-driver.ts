import { insertRun, requestCancel, runStatus, type RunnableVersion, type RunStart } from "@/lib/persistence/run-queries";
import { DECISIONS_CHANNEL } from "@/lib/persistence/run-store";
import type { RunDetail } from "@/lib/contracts/run";
import { RUN_ENDING_EVENT_TYPES } from "@/lib/contracts/run-event";
import type { StudioDatabase } from "@/lib/persistence";
import type { RunEventBus } from "@/lib/workflow/event-bus";
import { runDefinitionOf } from "@/lib/workflow/run-definition";
import type { RunEngine } from "@/lib/workflow/run-engine";
import type { RunQueue } from "./queue/run-queue";

/**
 * How this process gets runs driven: by its own engine (the embedded SQLite
 * studio: one process), or through the job queue (PostgreSQL: any worker
 * process, this one included when its role is `all`).
 */
export interface RunDriver {
  /** Creates the run of `version` and sees that it is driven. */
  start(version: RunnableVersion, inputs: Record<string, unknown>, start?: Omit<RunStart, "alongWith">): Promise<RunDetail>;
  /** Cancels a run and resolves once it has stopped; false when it had already finished. */
  cancel(runId: string, by: string | null): Promise<boolean>;
  /**
   * Approval `approvalId` of run `runId` still waits, and something about it
   * was stored short of its decision (a vote toward several, an escalation):
   * sees that whoever drives the run announces it (an event of the run, on its
   * timeline and to every open page).
   */
  approvalChanged(approvalId: string, runId: string): Promise<void>;
}

/** The embedded studio: this process's engine drives every run. */
export class LocalRunDriver implements RunDriver {
  constructor(
    private readonly engine: RunEngine,
    private readonly database: StudioDatabase,
  ) {}

  async start(version: RunnableVersion, inputs: Record<string, unknown>, start: Omit<RunStart, "alongWith"> = {}): Promise<RunDetail> {
    const run = await insertRun(version, inputs, this.database, start);
    await this.engine.start(run.id, {
      workflowId: version.workflowId,
      version: run.version,
      startedAt: run.startedAt,
      definition: runDefinitionOf(version.definition, start),
      ...(start.loop ? { loop: start.loop } : {}),
      inputs,
      trigger: run.trigger,
      triggerPayload: start.triggerPayload,
      source: start.source ? { runId: start.source.id, kind: start.source.kind } : null,
      ...(start.carried ? { carried: start.carried } : {}),
      ...(start.excluded ? { excluded: start.excluded } : {}),
    });
    return run;
  }

  cancel(runId: string, by: string | null): Promise<boolean> {
    return this.engine.cancel(runId, by);
  }

  approvalChanged(approvalId: string): Promise<void> {
    return this.engine.noticeDecision(approvalId);
  }
}

/** How long a cancel waits for the worker driving the run to stop it before answering anyway (the run still stops). */
const CANCEL_WAIT_MS = 15_000;

/** PostgreSQL with workers: a run is created with the job that drives it; a cancel is a stored request every process hears. */
export class QueuedRunDriver implements RunDriver {
  constructor(
    private readonly queue: RunQueue,
    private readonly database: StudioDatabase,
    private readonly bus: RunEventBus,
  ) {}

  start(version: RunnableVersion, inputs: Record<string, unknown>, start: Omit<RunStart, "alongWith"> = {}): Promise<RunDetail> {
    return insertRun(version, inputs, this.database, { ...start, alongWith: (runId) => this.queue.requestWrites(runId) });
  }

  async cancel(runId: string, by: string | null): Promise<boolean> {
    const stopped = new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        unsubscribe();
        resolve();
      };
      const unsubscribe = this.bus.subscribe(runId, (event) => {
        if (RUN_ENDING_EVENT_TYPES.has(event.type)) done();
      });
      const timer = setTimeout(done, CANCEL_WAIT_MS);
    });
    const requested = await requestCancel(runId, by, this.database, (transaction) => this.queue.sendWithin(transaction, runId));
    // Finished, or someone asked already (their cancel is under way).
    if (!requested) return false;
    // Finished meanwhile (before the bus heard of it)? The stored status says.
    const status = await runStatus(runId, this.database);
    if (status === "running" || status === "awaiting_input") await stopped;
    return true;
  }

  /**
   * A run waiting only for people is parked (no process holds it), so its
   * next drive announces the change: one is queued (none if one already waits).
   * A process holding it now hears of it over the database, as of a decision.
   */
  async approvalChanged(approvalId: string, runId: string): Promise<void> {
    await this.database.$transaction(async (transaction) => {
      await this.queue.sendWithin(transaction, runId);
      await transaction.$executeRawUnsafe("SELECT pg_notify($1, $2)", DECISIONS_CHANNEL, approvalId);
    });
  }
}
