import { secretsOfWorkflow } from "@/lib/tools/secrets";
import { RUN_ENDING_EVENT_TYPES } from "@/lib/contracts/run-event";
import type { SecretResolver, ToolPool } from "@/lib/tools";
import { findRunnableVersion, type RunnableVersion } from "@/lib/persistence/run-queries";
import { lastHandledSlot, oldestQueued, SlotNotStarted, type FiringHeld } from "@/lib/persistence/schedule-store";
import type { StudioDatabase } from "@/lib/persistence";
import type { RunEventBus } from "@/lib/workflow/event-bus";
import { inputFieldsOf, runInputsSchema } from "@/lib/workflow/run-inputs";
import type { ScheduleFiringPayload, ScheduleNode } from "@/nodes/schedule/definition";
import { planFirings, type PlannedFiring } from "@/nodes/schedule/policy";
import { compileSchedule, dueSlots, isProblem, localTimeZone, type CompiledSchedule } from "@/nodes/schedule/slots";
import type { RunDriver } from "../run-driver";
import { validateForRun } from "../run-validation";

/**
 * Fires the schedules of published workflows, in every process that drives
 * runs. It keeps the published versions' schedule nodes in memory (read again
 * when this process publishes or unpublishes, and every few seconds to see
 * other processes' changes) and one timer, for the earliest next slot of all
 * of them. Each due slot goes through studio.runs.start with the slot as the
 * run's `firing`: the unique ScheduleFiring row written in the run's
 * transaction decides which process starts it (lib/persistence/schedule-store.ts).
 *
 * Missed slots: a schedule read from the database (at start, or seen for the
 * first time) counts from its newest handled slot, or its publishing time;
 * slots older than a short grace before that moment passed while no process
 * was firing them, and its missed-slot policy applies to them. Slots that come
 * due while the process runs are fired one by one, however late the timer.
 */

/** How often the published workflows are read again, for publishes in other processes. */
export const REFRESH_MS = 5_000;
/** A slot younger than this when a schedule is read is not missed: a running process may be firing it right now. */
export const LATE_GRACE_MS = 2_000;
/** More slots than this due at once in a running process (it stalled): they count as missed, so the policy decides instead of a burst of runs. */
export const CATCH_UP_LIMIT = 60;

interface LiveSchedule {
  key: string;
  node: ScheduleNode;
  version: RunnableVersion;
  compiled: CompiledSchedule;
  inputs: Record<string, unknown>;
  /** Every slot up to this instant (ms) is handled. */
  handledUntil: number;
  /** Slots up to this instant passed while nobody fired them; null once the first pass has dealt with them. */
  missedUntil: number | null;
}

export interface SchedulerOptions {
  database: StudioDatabase;
  runs: RunDriver;
  bus: RunEventBus;
  pool: () => ToolPool;
  secrets: SecretResolver;
  log: (message: string, error?: unknown) => void;
  refreshMs?: number;
}

export class Scheduler {
  private readonly schedules = new Map<string, LiveSchedule>();
  /** The published version and time each workflow's schedules were read from. */
  private readonly published = new Map<string, { version: number; publishedAt: number }>();
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  private stopped = false;
  private nextRefreshAt = 0;
  private unsubscribe: (() => void) | null = null;
  private queueCheckPending = false;
  private readonly refreshMs: number;

  constructor(private readonly options: SchedulerOptions) {
    this.refreshMs = options.refreshMs ?? REFRESH_MS;
  }

  /** Reads the published schedules and arms the timer. */
  start(): Promise<void> {
    // A run ending may let a queued slot start; the periodic pass catches the rest (and ends heard elsewhere).
    this.unsubscribe = this.options.bus.subscribeAll((event) => {
      if (RUN_ENDING_EVENT_TYPES.has(event.type) && !this.queueCheckPending && this.hasQueueSchedules()) {
        this.queueCheckPending = true;
        this.serially(async () => {
          this.queueCheckPending = false;
          await this.startQueued();
        });
      }
    }, { endsOf: () => this.hasQueueSchedules() });
    this.serially(() => this.tick());
    return this.chain;
  }

  /** A workflow was published or unpublished in this process: its schedules stop at once, and its live version's are read again. */
  workflowChanged(workflowId: string): Promise<void> {
    this.forget(workflowId);
    this.serially(async () => {
      await this.refresh([workflowId]);
      this.arm();
    });
    return this.chain;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.unsubscribe?.();
  }

  /** The schedules firing now, as `workflowId/nodeId` (for tests and logs). */
  live(): string[] {
    return [...this.schedules.keys()];
  }

  private serially(task: () => Promise<void>): void {
    this.chain = this.chain.then(() => (this.stopped ? undefined : task())).catch((error: unknown) => this.options.log("the scheduler's pass failed", error));
  }

  private async tick(): Promise<void> {
    // Armed whatever happens: a pass that fails (the database briefly away) is logged, and the next one tries again.
    try {
      if (Date.now() >= this.nextRefreshAt) {
        // Set first, so a refresh that fails is tried again in REFRESH_MS rather than at once.
        this.nextRefreshAt = Date.now() + this.refreshMs;
        await this.refresh(null);
        await this.startQueued();
      }
      for (const schedule of [...this.schedules.values()]) {
        if (this.stopped) return;
        await this.fireDue(schedule);
      }
    } finally {
      this.arm();
    }
  }

  /** One timer: the earliest next slot of all schedules, or the next refresh. */
  private arm(): void {
    if (this.stopped) return;
    let earliest = this.nextRefreshAt;
    for (const schedule of this.schedules.values()) {
      const next = schedule.compiled.next(new Date(schedule.handledUntil));
      if (next) earliest = Math.min(earliest, next.getTime());
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.serially(() => this.tick()), Math.max(0, earliest - Date.now()));
    // A schedule never keeps the process alive on its own.
    this.timer.unref();
  }

  private forget(workflowId: string): void {
    this.published.delete(workflowId);
    for (const [key, schedule] of this.schedules) if (schedule.version.workflowId === workflowId) this.schedules.delete(key);
  }

  private hasQueueSchedules(): boolean {
    for (const schedule of this.schedules.values()) if (schedule.node.overlap === "queue") return true;
    return false;
  }

  /**
   * Reads the published workflows (all, or `only` these) and loads the
   * schedules of versions not loaded yet; a cheap query when nothing changed.
   */
  private async refresh(only: string[] | null): Promise<void> {
    const { database } = this.options;
    const rows = await database.workflow.findMany({
      where: only ? { id: { in: only } } : { publishedVersion: { not: null } },
      select: { id: true, publishedVersion: true, publishedAt: true },
    });
    const live = new Set<string>();
    for (const row of rows) {
      if (row.publishedVersion === null) continue;
      live.add(row.id);
      const publishedAt = row.publishedAt?.getTime() ?? Date.now();
      const known = this.published.get(row.id);
      if (known && known.version === row.publishedVersion && known.publishedAt === publishedAt) continue;
      await this.load(row.id, row.publishedVersion, publishedAt);
    }
    for (const workflowId of only ?? [...this.published.keys()]) if (!live.has(workflowId)) this.forget(workflowId);
  }

  private async load(workflowId: string, versionNumber: number, publishedAt: number): Promise<void> {
    const version = await findRunnableVersion(workflowId, versionNumber, this.options.database);
    const nodes = version.definition.nodes.filter((node): node is ScheduleNode => node.kind === "schedule");
    const keys = new Set(nodes.map((node) => `${workflowId}/${node.id}`));
    for (const [key, schedule] of this.schedules) if (schedule.version.workflowId === workflowId && !keys.has(key)) this.schedules.delete(key);
    const inputs = runInputsSchema(inputFieldsOf(version.definition)).safeParse({});
    for (const node of nodes) {
      const key = `${workflowId}/${node.id}`;
      const compiled = compileSchedule(node, localTimeZone());
      if (isProblem(compiled) || !inputs.success) {
        this.schedules.delete(key);
        this.options.log(`schedule ${key} of version ${versionNumber} cannot fire: ${isProblem(compiled) ? compiled.message : "its run inputs need values a schedule cannot give"}`);
        continue;
      }
      const earlier = this.schedules.get(key);
      // A new version of a schedule this process fires already goes on from where it was: nothing about handled slots resets.
      const handled = earlier ? null : await lastHandledSlot(workflowId, node.id, this.options.database);
      this.schedules.set(key, {
        key,
        node,
        version,
        compiled,
        inputs: inputs.data,
        handledUntil: earlier?.handledUntil ?? Math.max(handled?.getTime() ?? 0, publishedAt),
        missedUntil: earlier ? earlier.missedUntil : Date.now() - LATE_GRACE_MS,
      });
    }
    this.published.set(workflowId, { version: versionNumber, publishedAt });
  }

  /** Fires the slots of `schedule` that came due, as its missed-slot policy says. */
  private async fireDue(schedule: LiveSchedule): Promise<void> {
    const now = Date.now();
    let missed: { count: number; latest: Date | null } = { count: 0, latest: null };
    let onTimeFrom = schedule.handledUntil;
    if (schedule.missedUntil !== null && schedule.missedUntil > schedule.handledUntil) {
      missed = dueSlots(schedule.compiled, new Date(schedule.handledUntil), new Date(schedule.missedUntil), 0);
      onTimeFrom = schedule.missedUntil;
    }
    schedule.missedUntil = null;
    const onTime = dueSlots(schedule.compiled, new Date(onTimeFrom), new Date(now), CATCH_UP_LIMIT + 1);
    let onTimeSlots = onTime.first;
    if (onTime.count > CATCH_UP_LIMIT) {
      missed = { count: missed.count + onTime.count, latest: onTime.latest };
      onTimeSlots = [];
    }
    const newest = Math.max(schedule.handledUntil, onTime.latest?.getTime() ?? 0, missed.latest?.getTime() ?? 0);
    if (missed.count > 0 && schedule.node.missed === "skip") this.options.log(`schedule ${schedule.key}: skipped ${missed.count} slot(s) missed while the studio was down`);
    for (const firing of planFirings(missed, onTimeSlots, schedule.node.missed)) {
      const outcome = await this.fire(schedule, firing);
      if (outcome === "superseded") {
        // Another version went live (or none is): read it, and fire this slot again with what is live now (the new
        // version's schedule takes over this one's place). Should nothing have changed after all, go on rather than spin.
        schedule.handledUntil = firing.slot.getTime() - 1;
        await this.refresh([schedule.version.workflowId]);
        if (this.schedules.get(schedule.key)?.version.versionId === schedule.version.versionId) schedule.handledUntil = newest;
        return;
      }
      schedule.handledUntil = firing.slot.getTime();
    }
    schedule.handledUntil = newest;
  }

  /** Starts the run for one slot, or learns why none started. */
  private async fire(schedule: LiveSchedule, firing: PlannedFiring, queuedId?: string): Promise<"started" | FiringHeld | "refused"> {
    const { version, node, compiled } = schedule;
    const validation = await validateForRun(version.versionId, version.definition, { pool: this.options.pool(), secrets: secretsOfWorkflow(this.options.secrets, version.workflowId) });
    if (!validation.valid) {
      this.options.log(`schedule ${schedule.key}: version ${version.version} cannot run now, slot ${firing.slot.toISOString()} starts nothing: ${validation.problems.map((problem) => problem.message).join("; ")}`);
      return "refused";
    }
    const slot = firing.slot.toISOString();
    const payload: ScheduleFiringPayload = { slot, missedSlots: firing.missedSlots, timezone: compiled.zone };
    try {
      await this.options.runs.start(version, schedule.inputs, {
        trigger: { kind: "schedule", nodeId: node.id, slot, ...(firing.missedSlots > 0 ? { missedSlots: firing.missedSlots } : {}) },
        triggerPayload: payload,
        firing: { workflowId: version.workflowId, nodeId: node.id, version: version.version, slot: firing.slot, missedSlots: firing.missedSlots, overlap: node.overlap, ...(queuedId ? { queuedId } : {}) },
      });
      return "started";
    } catch (error) {
      if (SlotNotStarted.isInstance(error)) {
        if (error.outcome === "skipped") this.options.log(`schedule ${schedule.key}: slot ${slot} skipped, the previous run is still going`);
        return error.outcome;
      }
      // Moving on: retrying a slot that fails every time would spin. The next slot tries again.
      this.options.log(`schedule ${schedule.key}: slot ${slot} could not start a run`, error);
      return "refused";
    }
  }

  /** Starts the oldest queued slot of each queue schedule whose previous run has ended (the store checks, under its lock). */
  private async startQueued(): Promise<void> {
    for (const schedule of [...this.schedules.values()]) {
      if (this.stopped || schedule.node.overlap !== "queue") continue;
      const queued = await oldestQueued(schedule.version.workflowId, schedule.node.id, this.options.database);
      if (queued) await this.fire(schedule, { slot: queued.slot, missedSlots: queued.missedSlots }, queued.id);
    }
  }
}
