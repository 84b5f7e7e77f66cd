import { overlapOutcome } from "@/nodes/schedule/policy";
import type { ScheduleNode } from "@/nodes/schedule/definition";
import { providerOf, type StudioDatabase } from "./database";
import { newId } from "./ids";
import type { Prisma } from "./generated/sqlite/client";
import { markedError } from "@/lib/marked-error";

/**
 * Schedule slots in the database. A slot is one ScheduleFiring row, unique
 * per workflow, node and slot: whichever process inserts it first (in the
 * transaction that creates the run) starts the run, and every other process
 * trying the same slot hits the unique index and does nothing. So each slot
 * fires once however many processes schedule, and the newest row per schedule
 * is where a restarted studio counts missed slots from.
 */

/** A slot a process wants to start a run for (RunStart.firing, lib/persistence/run-queries.ts). */
export interface SlotFiring {
  workflowId: string;
  nodeId: string;
  /** The published version the firing starts: a firing of a version no longer live starts nothing ("superseded"). */
  version: number;
  slot: Date;
  missedSlots: number;
  overlap: ScheduleNode["overlap"];
  /** Start this queued firing (its previous run has ended) instead of a new slot. */
  queuedId?: string;
}

/**
 * What became of a firing that started no run: recorded as skipped or queued (the previous run still going),
 * taken (another process had the slot), waiting (a queued one whose turn has not come), superseded (unpublished, or another version live).
 */
export type FiringHeld = "skipped" | "queued" | "taken" | "waiting" | "superseded";

const UNFINISHED = ["running", "awaiting_input"];

/** A firing that started no run; `outcome` says why. Thrown by insertRun after its transaction committed whatever the outcome records. */
export class SlotNotStarted extends markedError("neurosurfer.slot-not-started", "SlotNotStarted") {
  constructor(
    readonly outcome: FiringHeld,
    readonly slot: Date,
  ) {
    super(`The schedule slot ${slot.toISOString()} started no run: ${outcome}.`);
  }
}

/**
 * Decides, in the transaction about to create run `runId`, whether the firing
 * starts it, and records the slot: "started" when the run is to be created.
 * On PostgreSQL an advisory lock per schedule makes the look at the previous
 * run and the decision one step across processes (two processes must not both
 * see "nothing running" and start two queued slots side by side). A taken
 * slot surfaces as the unique index's violation.
 */
export async function admitFiring(transaction: Prisma.TransactionClient, database: StudioDatabase, firing: SlotFiring, runId: string): Promise<"started" | FiringHeld> {
  const { workflowId, nodeId } = firing;
  if (providerOf(database) === "postgresql") {
    await transaction.$executeRawUnsafe("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", `schedule:${workflowId}:${nodeId}`);
    // FOR SHARE: an unpublish (an UPDATE of this row) waits for this firing, or this firing for it and then sees it, so no
    // slot is queued or started after the unpublish has dropped the queued ones.
    const rows = await transaction.$queryRawUnsafe<{ publishedVersion: number | null }[]>(`SELECT "publishedVersion" FROM "Workflow" WHERE "id" = $1 FOR SHARE`, workflowId);
    if (rows[0]?.publishedVersion !== firing.version) return "superseded";
  } else {
    // SQLite: the studio's one connection runs one transaction at a time, an unpublish included.
    const live = await transaction.workflow.count({ where: { id: workflowId, publishedVersion: firing.version } });
    if (live === 0) return "superseded";
  }
  const previousGoing =
    firing.overlap !== "allow" &&
    (await transaction.run.count({ where: { workflowId, trigger: "schedule", triggerNodeId: nodeId, status: { in: UNFINISHED } } })) > 0;
  if (firing.queuedId) {
    if (previousGoing) return "waiting";
    const { count } = await transaction.scheduleFiring.updateMany({ where: { id: firing.queuedId, outcome: "queued" }, data: { outcome: "started", runId } });
    return count === 1 ? "started" : "taken";
  }
  const waiting = firing.overlap === "queue" ? await transaction.scheduleFiring.count({ where: { workflowId, nodeId, outcome: "queued" } }) : 0;
  const outcome = overlapOutcome(firing.overlap, previousGoing, waiting);
  const recorded = outcome === "start" ? "started" : outcome === "skip" ? "skipped" : "queued";
  await transaction.scheduleFiring.create({
    data: { id: newId(), workflowId, nodeId, slot: firing.slot, outcome: recorded, runId: outcome === "start" ? runId : null, missedSlots: firing.missedSlots },
  });
  return recorded;
}

/** The newest slot handled for a schedule (fired, skipped or queued), or null when none was. */
export async function lastHandledSlot(workflowId: string, nodeId: string, database: StudioDatabase): Promise<Date | null> {
  const row = await database.scheduleFiring.findFirst({ where: { workflowId, nodeId }, orderBy: { slot: "desc" }, select: { slot: true } });
  return row?.slot ?? null;
}

/** The oldest slot waiting under the queue policy. */
export async function oldestQueued(workflowId: string, nodeId: string, database: StudioDatabase): Promise<{ id: string; slot: Date; missedSlots: number } | null> {
  return database.scheduleFiring.findFirst({ where: { workflowId, nodeId, outcome: "queued" }, orderBy: { slot: "asc" }, select: { id: true, slot: true, missedSlots: true } });
}

/** Queued slots of an unpublished workflow start nothing any more. */
export async function dropQueued(workflowId: string, transaction: Prisma.TransactionClient): Promise<void> {
  await transaction.scheduleFiring.updateMany({ where: { workflowId, outcome: "queued" }, data: { outcome: "dropped" } });
}

/** Per schedule node of a workflow: how many slots started runs, were skipped, are queued or were dropped, and the newest slot. */
export interface ScheduleCounts {
  nodeId: string;
  started: number;
  skipped: number;
  queued: number;
  dropped: number;
  lastSlot: string | null;
}

export async function scheduleCounts(workflowId: string, database: StudioDatabase): Promise<ScheduleCounts[]> {
  const groups = await database.scheduleFiring.groupBy({ by: ["nodeId", "outcome"], where: { workflowId }, _count: { _all: true }, _max: { slot: true } });
  const byNode = new Map<string, ScheduleCounts>();
  for (const group of groups) {
    const counts = byNode.get(group.nodeId) ?? { nodeId: group.nodeId, started: 0, skipped: 0, queued: 0, dropped: 0, lastSlot: null };
    const outcome = group.outcome as "started" | "skipped" | "queued" | "dropped";
    if (outcome in counts) counts[outcome] += group._count._all;
    const newest = group._max.slot?.toISOString() ?? null;
    if (newest && (!counts.lastSlot || newest > counts.lastSlot)) counts.lastSlot = newest;
    byNode.set(group.nodeId, counts);
  }
  return [...byNode.values()].sort((left, right) => left.nodeId.localeCompare(right.nodeId));
}
