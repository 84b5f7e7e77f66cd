import { setImmediate as nextTurn, setTimeout as rest } from "node:timers/promises";
import { CHILD_RUN_KINDS } from "@/lib/contracts/run";
import { KEEP_EVERYTHING, RetentionPolicySchema, type RetentionPolicy, type WorkflowRetention } from "@/lib/contracts/retention";
import type { Prisma } from "./generated/sqlite/client";
import { BUSY_TRANSACTION, getDatabase, providerOf, sqliteWriter, type StudioDatabase } from "./database";
import { deleteRunTrees, deleteRunTreesThrough, RunStillGoingError } from "./run-deletion";

/*
 * Retention: the stored settings (the RetentionPolicy model) and the pruning
 * they ask for. lib/server/retention.ts runs `pruneRuns` in the background;
 * the Settings page shows `countPrunable` before anyone saves.
 *
 * Every query is per workflow on Run's (workflowId, createdAt) index: a
 * workflow's limits become one creation-time cutoff (the older of "N days ago"
 * and "the N-th newest run's start"), so "which runs go" is a range scan, and
 * "how many" a count over the same range.
 */

/**
 * Runs removed per transaction: small enough that the write lock (SQLite) or the row locks (PostgreSQL) are held
 * briefly, and that a batch (on SQLite, work on the thread that serves requests) takes a few milliseconds.
 */
export const PRUNE_BATCH = 50;
/**
 * The least rest between batches. Each rest is also at least as long as the batch before it took: pruning takes
 * at most half of the thread, and a request that needs several turns of the event loop (a run's start: its body,
 * its credential, its insert, its answer) finishes within one rest instead of waiting a batch at each turn
 * (with only a turn between batches, 100,000 runs pruned delayed starts by 124 ms at the median).
 */
const MIN_REST_MS = 10;
const STUDIO_ID = "studio";
const workflowPolicyId = (workflowId: string) => `workflow:${workflowId}`;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Runs a step of another run called go with that run, never on their own (so a loop of a thousand items does not count as a thousand runs). */
const ROOT_RUN: Prisma.RunWhereInput = { OR: [{ sourceKind: null }, { sourceKind: { notIn: [...CHILD_RUN_KINDS] } }] };

function policyOf(row: { keepDays: number | null; keepLast: number | null; keepFailedDays: number | null } | null): RetentionPolicy {
  if (!row) return KEEP_EVERYTHING;
  // Parsed on the way out, like every stored value: a row edited by hand into nonsense reads as "keep everything".
  const parsed = RetentionPolicySchema.safeParse({ keepDays: row.keepDays, keepLast: row.keepLast, keepFailedDays: row.keepFailedDays });
  return parsed.success ? parsed.data : KEEP_EVERYTHING;
}

export async function readStudioRetention(database: StudioDatabase = getDatabase()): Promise<RetentionPolicy> {
  return policyOf(await database.retentionPolicy.findUnique({ where: { id: STUDIO_ID } }));
}

/** The workflows with a setting of their own, by name. */
export async function listWorkflowRetention(database: StudioDatabase = getDatabase()): Promise<WorkflowRetention[]> {
  const rows = await database.retentionPolicy.findMany({ where: { workflowId: { not: null } }, include: { workflow: { select: { name: true } } } });
  return rows
    .map((row) => ({ workflowId: row.workflowId!, workflowName: row.workflow?.name ?? "", policy: policyOf(row) }))
    .sort((left, right) => left.workflowName.localeCompare(right.workflowName));
}

/** Stores the studio-wide setting, or (with `workflowId`) a workflow's own, replacing what was there. */
export async function saveRetention(policy: RetentionPolicy, by: string, workflowId: string | null, database: StudioDatabase = getDatabase()): Promise<void> {
  const values = { keepDays: policy.keepDays, keepLast: policy.keepLast, keepFailedDays: policy.keepFailedDays, updatedBy: by.slice(0, 200) };
  const id = workflowId === null ? STUDIO_ID : workflowPolicyId(workflowId);
  await database.retentionPolicy.upsert({ where: { id }, create: { id, workflowId, ...values }, update: values });
}

/** Removes a workflow's own setting: the studio-wide one applies to it again. False when it had none. */
export async function clearWorkflowRetention(workflowId: string, database: StudioDatabase = getDatabase()): Promise<boolean> {
  const { count } = await database.retentionPolicy.deleteMany({ where: { id: workflowPolicyId(workflowId) } });
  return count > 0;
}

/** Each workflow with the setting that applies to it. */
async function policiesByWorkflow(database: StudioDatabase): Promise<{ workflowId: string; policy: RetentionPolicy }[]> {
  const [studio, workflows] = await Promise.all([
    readStudioRetention(database),
    database.workflow.findMany({ select: { id: true, retentionPolicy: { select: { keepDays: true, keepLast: true, keepFailedDays: true } } } }),
  ]);
  return workflows.map((workflow) => ({ workflowId: workflow.id, policy: workflow.retentionPolicy ? policyOf(workflow.retentionPolicy) : studio }));
}

const older = (left: Date | null, right: Date | null): Date | null => (left === null ? right : right === null ? left : left < right ? left : right);
const newer = (left: Date | null, right: Date | null): Date | null => (left === null ? right : right === null ? left : left > right ? left : right);

/**
 * The runs of `workflowId` that `policy` removes as of `now`, as a where clause (null: none).
 * A finished run goes when it started before the cutoff: the newer of "keepDays ago" and the start of the
 * workflow's keepLast-th newest run (strictly before it, so at least keepLast runs stay). A failed run, with
 * keepFailedDays set, must also be older than that.
 */
export async function removableRuns(workflowId: string, policy: RetentionPolicy, now: Date, database: StudioDatabase): Promise<Prisma.RunWhereInput | null> {
  const byAge = policy.keepDays === null ? null : new Date(now.getTime() - policy.keepDays * DAY_MS);
  let byCount: Date | null = null;
  if (policy.keepLast !== null) {
    const last = await database.run.findFirst({
      where: { workflowId, ...ROOT_RUN },
      orderBy: { createdAt: "desc" },
      skip: policy.keepLast - 1,
      select: { createdAt: true },
    });
    byCount = last?.createdAt ?? null;
  }
  const cutoff = newer(byAge, byCount);
  if (cutoff === null) return null;
  const statuses: Prisma.RunWhereInput[] =
    policy.keepFailedDays === null
      ? [{ status: { in: ["succeeded", "failed", "cancelled"] }, createdAt: { lt: cutoff } }]
      : [
          { status: { in: ["succeeded", "cancelled"] }, createdAt: { lt: cutoff } },
          { status: "failed", createdAt: { lt: older(cutoff, new Date(now.getTime() - policy.keepFailedDays * DAY_MS))! } },
        ];
  return { workflowId, AND: [ROOT_RUN, { OR: statuses }] };
}

/**
 * How many runs (not counting the runs they called) the settings as they are would remove now. Counted a
 * workflow at a time with a short rest after each (as long as the count took, at most MIN_REST_MS), so requests are
 * served between the counts: the Settings page's answer over 100,000 runs once held the thread that serves
 * requests for 255 ms at a stretch. One workflow's count is still one statement.
 */
export async function countPrunable(database: StudioDatabase = getDatabase(), now = new Date()): Promise<number> {
  let total = 0;
  for (const { workflowId, policy } of await policiesByWorkflow(database)) {
    const began = performance.now();
    const where = await removableRuns(workflowId, policy, now, database);
    if (where) total += await database.run.count({ where });
    await rest(Math.min(MIN_REST_MS, performance.now() - began));
  }
  return total;
}

export interface PruneReport {
  /** Runs removed, the runs they called included. */
  runsDeleted: number;
  /** Transactions it took. */
  batches: number;
  /** Runs the settings would remove but that were kept because a run they called is still going. */
  keptGoing: number;
}

export interface PruneOptions {
  now?: Date;
  batchSize?: number;
  /** Awaited between batches, given how long the batch took; by default a rest as long as the batch, and at least MIN_REST_MS. */
  pause?: (batchMs: number) => Promise<unknown>;
  /** Stops between batches once aborted (the process is shutting down). */
  signal?: AbortSignal;
  log?: (message: string, error?: unknown) => void;
}

/**
 * Removes what the settings say to remove, oldest first, PRUNE_BATCH runs (with the runs they called) per
 * transaction. Running and waiting runs are never touched, nor a run whose called run still goes.
 */
export async function pruneRuns(database: StudioDatabase = getDatabase(), options: PruneOptions = {}): Promise<PruneReport> {
  const now = options.now ?? new Date();
  const batchSize = options.batchSize ?? PRUNE_BATCH;
  const pause = options.pause ?? ((batchMs: number) => rest(Math.max(MIN_REST_MS, batchMs)));
  const report: PruneReport = { runsDeleted: 0, batches: 0, keptGoing: 0 };
  // SQLite: deleted by the run writer's connection, off the thread that serves requests (deleteRunTreesThrough).
  const writer = providerOf(database) === "sqlite" ? sqliteWriter(database) : null;
  for (const { workflowId, policy } of await policiesByWorkflow(database)) {
    const where = await removableRuns(workflowId, policy, now, database);
    if (!where) continue;
    const kept: string[] = [];
    while (!options.signal?.aborted) {
      const ids = (
        await database.run.findMany({ where: kept.length > 0 ? { AND: [where, { id: { notIn: kept } }] } : where, orderBy: { createdAt: "asc" }, take: batchSize, select: { id: true } })
      ).map((row) => row.id);
      if (ids.length === 0) break;
      const began = performance.now();
      try {
        const outcome = writer ? await deleteRunTreesThrough(writer, ids, database) : await database.$transaction((transaction) => deleteRunTrees(ids, transaction), BUSY_TRANSACTION);
        report.runsDeleted += outcome.deleted.length;
        report.keptGoing += outcome.kept.length;
        kept.push(...outcome.kept);
      } catch (error) {
        // A run went on again between the read and the delete (a retry on PostgreSQL): this workflow waits for the next pass.
        if (!RunStillGoingError.isInstance(error)) throw error;
        options.log?.(`retention: left the runs of workflow ${workflowId} for the next pass`, error);
        break;
      }
      report.batches += 1;
      await pause(performance.now() - began);
    }
  }
  return report;
}

/** The database's size in bytes: SQLite's pages (the file, WAL aside), PostgreSQL's pg_database_size. */
export async function databaseBytes(database: StudioDatabase = getDatabase()): Promise<number> {
  if (providerOf(database) === "postgresql") {
    const [row] = await database.$queryRawUnsafe<{ size: bigint | number }[]>("SELECT pg_database_size(current_database()) AS size");
    return Number(row?.size ?? 0);
  }
  const [pages] = await database.$queryRawUnsafe<{ page_count: bigint | number }[]>("PRAGMA page_count");
  const [size] = await database.$queryRawUnsafe<{ page_size: bigint | number }[]>("PRAGMA page_size");
  return Number(pages?.page_count ?? 0) * Number(size?.page_size ?? 0);
}

/** SQLite's auto_vacuum mode: 0 none, 1 full, 2 incremental; null on PostgreSQL. */
async function autoVacuumMode(database: StudioDatabase): Promise<number | null> {
  if (providerOf(database) === "postgresql") return null;
  const [row] = await database.$queryRawUnsafe<{ auto_vacuum: bigint | number }[]>("PRAGMA auto_vacuum");
  return Number(row?.auto_vacuum ?? 0);
}

/** How the space of removed runs comes back, in words, for the Settings page. */
export async function spaceNote(database: StudioDatabase = getDatabase()): Promise<string> {
  const mode = await autoVacuumMode(database);
  if (mode === null) return "PostgreSQL's autovacuum makes the space of removed runs reusable; the database's files do not shrink on their own.";
  if (mode === 2) return "The space of removed runs is given back to the file system after each pruning (SQLite incremental auto-vacuum).";
  if (mode === 1) return "SQLite gives the space of removed runs back to the file system as they are removed (full auto-vacuum).";
  return "SQLite reuses the space of removed runs for new ones; the file does not shrink (its auto-vacuum is off, and the studio does not VACUUM, which would lock the database for as long as it takes).";
}

/**
 * After a pruning on SQLite whose auto_vacuum is incremental: gives the free pages back to the file system, a
 * thousand at a time with a pause between, so the write lock is never held long. Otherwise nothing: a full VACUUM
 * rewrites the whole file under the write lock, which no background job should do. Returns the pages freed.
 */
export async function reclaimSpace(database: StudioDatabase, pause: () => Promise<unknown> = () => nextTurn()): Promise<number> {
  if ((await autoVacuumMode(database)) !== 2) return 0;
  let freed = 0;
  for (;;) {
    const [row] = await database.$queryRawUnsafe<{ freelist_count: bigint | number }[]>("PRAGMA freelist_count");
    const free = Number(row?.freelist_count ?? 0);
    if (free === 0) return freed;
    await database.$queryRawUnsafe("PRAGMA incremental_vacuum(1000)");
    freed += Math.min(free, 1000);
    await pause();
  }
}
