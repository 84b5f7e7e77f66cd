import { WorkflowDefinitionSchema, type WorkflowDefinition } from "@/lib/workflow/definition";
import type { ApprovalDetail } from "@/lib/contracts/approval";
import { CHILD_RUN_KINDS, MAX_LISTED_RERUNS, RERUN_KINDS, type RerunLink, type RunDetail, type RunLink, type RunSourceKind, type RunLoop, type RunPermissions, type RunSourceLink, type RunSummary } from "@/lib/contracts/run";
import { runDefinitionOf } from "@/lib/workflow/run-definition";
import type { CarriedStep } from "@/lib/workflow/carry-over";
import { PERSON_TRIGGER, triggerColumns, type RunTrigger, type RunTriggerKind } from "@/lib/contracts/run-trigger";
import type { ApprovalStatus, RunEvent, RunRecord, RunStatus } from "@/lib/workflow/run-types";

export type { ApprovalDetail, RunDetail, RunSummary };
import { BUSY_TRANSACTION, getDatabase, sqliteConnection, sqliteWriter, type StudioDatabase } from "./database";
import type { Write } from "./run-commit-writes";
import { NotFoundError } from "./errors";
import { newId } from "./ids";
import { preparedRows } from "./hot-path";
import { isUniqueViolation } from "./prisma-errors";
import { readDate, sqliteDate, statement } from "./prepared";
import { CANCELS_CHANNEL, runSourceFromColumns, storedLoop, storedPermissions, toApprovalRecord, toRunEvent, toRunRecord, toStepRecord } from "./run-store";
import { admitFiring, SlotNotStarted, type FiringHeld, type SlotFiring } from "./schedule-store";
import type { Prisma } from "./generated/sqlite/client";

/**
 * Reads and creates runs for the API. The engine writes everything else
 * through PrismaRunStore. Each function takes the database last.
 */

/** Parsed definitions by version id: a version never changes once saved, so parsing once is enough. */
const definitionsByVersion = new Map<string, WorkflowDefinition>();
const DEFINITION_CACHE_SIZE = 200;

/** The parsed definition of a version read before, if it is still remembered: callers on hot paths then skip reading its text. */
export function rememberedDefinition(versionId: string): WorkflowDefinition | undefined {
  return definitionsByVersion.get(versionId);
}

export function parsedDefinition(versionId: string, json: string): WorkflowDefinition {
  let definition = definitionsByVersion.get(versionId);
  if (!definition) {
    definition = WorkflowDefinitionSchema.parse(JSON.parse(json));
    if (definitionsByVersion.size >= DEFINITION_CACHE_SIZE) definitionsByVersion.delete(definitionsByVersion.keys().next().value!);
    definitionsByVersion.set(versionId, definition);
  }
  return definition;
}

const FIND_VERSION = `SELECT v."id" AS "id", v."version" AS "version", v."definition" AS "definition", w."name" AS "workflowName", w."latestVersion" AS "latestVersion" FROM "Workflow" w
  JOIN "WorkflowVersion" v ON v."workflowId" = w."id" AND v."version" = COALESCE(?, w."latestVersion") WHERE w."id" = ?`;
const INSERT_RUN = `INSERT INTO "Run" ("id", "workflowId", "versionId", "status", "inputs", "lastSeq", "createdAt", "startedAt", "trigger", "triggerNodeId", "triggerDetail", "sourceRunId", "sourceKind", "sourceNodeId", "sourceAttempt", "permissions", "sourceItem", "loop")
  VALUES (?, ?, ?, 'running', ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const INSERT_STEP = `INSERT INTO "Step" ("id", "runId", "nodeId", "status", "attempt", "input") VALUES (?, ?, ?, 'pending', 0, ?)`;
const INSERT_CARRIED_STEP = `INSERT INTO "Step" ("id", "runId", "nodeId", "status", "attempt", "input", "output", "startedAt", "finishedAt", "carriedFromRunId", "carriedAs")
  VALUES (?, ?, ?, 'succeeded', ?, ?, ?, ?, ?, ?, ?)`;
const INSERT_EXCLUDED_STEP = `INSERT INTO "Step" ("id", "runId", "nodeId", "status", "attempt", "finishedAt") VALUES (?, ?, ?, 'skipped', 0, ?)`;
const INSERT_DELIVERY = `INSERT INTO "WebhookDelivery" ("id", "workflowId", "hookId", "idempotencyKey", "runId", "createdAt") VALUES (?, ?, ?, ?, ?, ?)`;

/** A workflow version a run can be started from: what the run pins, and what its answer names. */
export interface RunnableVersion {
  workflowId: string;
  workflowName: string;
  versionId: string;
  version: number;
  /** The workflow's newest version when this one was looked up. */
  latestVersion: number;
  /** Parsed once per version (a version never changes once saved). */
  definition: WorkflowDefinition;
}

/**
 * The workflow's newest version (or `version`); NotFoundError for an unknown
 * workflow or version. On the hot path of every run, so a prepared statement
 * on Prisma's connection where there is one.
 */
export async function findRunnableVersion(
  workflowId: string,
  version: number | undefined,
  database: StudioDatabase = getDatabase(),
): Promise<RunnableVersion> {
  const connection = await sqliteConnection(database);
  if (!connection) return findRunnableVersionWithPrisma(workflowId, version, database);
  const sqlite = connection.database;
  const row = statement(sqlite, FIND_VERSION).get(version ?? null, workflowId) as
    | { id: string; version: number; definition: string; workflowName: string; latestVersion: number }
    | undefined;
  if (!row) {
    const exists = statement(sqlite, `SELECT 1 FROM "Workflow" WHERE "id" = ?`).get(workflowId);
    if (!exists) throw new NotFoundError("workflow", workflowId);
    throw new NotFoundError("workflow version", `${workflowId}@${version}`);
  }
  return {
    workflowId,
    workflowName: row.workflowName,
    versionId: row.id,
    version: row.version,
    latestVersion: row.latestVersion,
    definition: parsedDefinition(row.id, row.definition),
  };
}

async function findRunnableVersionWithPrisma(workflowId: string, version: number | undefined, database: StudioDatabase): Promise<RunnableVersion> {
  const workflow = await database.workflow.findUnique({ where: { id: workflowId }, select: { latestVersion: true, name: true } });
  if (!workflow) throw new NotFoundError("workflow", workflowId);
  const versionNumber = version ?? workflow.latestVersion;
  const row = await database.workflowVersion.findUnique({ where: { workflowId_version: { workflowId, version: versionNumber } } });
  if (!row) throw new NotFoundError("workflow version", `${workflowId}@${versionNumber}`);
  return {
    workflowId,
    workflowName: workflow.name,
    versionId: row.id,
    version: row.version,
    latestVersion: workflow.latestVersion,
    definition: parsedDefinition(row.id, row.definition),
  };
}

/**
 * The version a workflow's runs as an error workflow start: its published
 * version, as its other triggers do, else (never published) its newest.
 * NotFoundError for an unknown workflow.
 */
export async function findErrorWorkflowVersion(workflowId: string, database: StudioDatabase = getDatabase()): Promise<RunnableVersion> {
  const workflow = await database.workflow.findUnique({ where: { id: workflowId }, select: { publishedVersion: true } });
  if (!workflow) throw new NotFoundError("workflow", workflowId);
  return findRunnableVersion(workflowId, workflow.publishedVersion ?? undefined, database);
}

/**
 * Records that `by` asked to cancel the run, when it is unfinished and nobody
 * asked before, with `withinTransaction` (the job that makes a worker act on
 * it) and a `pg_notify` on CANCELS_CHANNEL in the same transaction, so the
 * process driving it now cancels at once and one that drives it later at its
 * start. False when the run has finished (or was already asked to stop).
 */
export async function requestCancel(
  runId: string,
  by: string | null,
  database: StudioDatabase,
  withinTransaction: (transaction: Prisma.TransactionClient, runId: string) => Promise<void>,
): Promise<boolean> {
  return database.$transaction(async (transaction) => {
    const { count } = await transaction.run.updateMany({
      where: { id: runId, status: { in: ["running", "awaiting_input"] }, cancelRequestedAt: null },
      data: { cancelRequestedAt: new Date(), cancelRequestedBy: by },
    });
    if (count === 0) return false;
    await withinTransaction(transaction, runId);
    await transaction.$executeRawUnsafe("SELECT pg_notify($1, $2)", CANCELS_CHANNEL, runId);
    return true;
  }, BUSY_TRANSACTION);
}

/** How a run starts, besides its version and inputs. */
export interface RunStart {
  /** The new run's id, when the caller must know it first (to listen for its events before it starts); default a new one. */
  runId?: string;
  /** What started it; a person at the run inputs node when absent. */
  trigger?: RunTrigger;
  /** What the trigger node received (a webhook's request): stored as that step's input. */
  triggerPayload?: unknown;
  /** A webhook delivery's idempotency key: recorded with the run, so the same key again finds this run (IdempotencyKeyTaken when taken). */
  delivery?: { workflowId: string; hookId: string; idempotencyKey: string };
  /**
   * A schedule slot: recorded with the run, unique per schedule and slot, so a slot another process took starts
   * nothing here; a slot the overlap policy holds back is recorded without a run. Either way SlotNotStarted says so.
   */
  firing?: SlotFiring;
  /** Whatever must commit with the run (the job that drives it). */
  withinTransaction?: (transaction: Prisma.TransactionClient, runId: string) => Promise<void>;
  /** The run this one came from, and how (an error workflow's run: the failed run; a retry: the run it repeats), linked both ways on their pages. */
  source?: RunSourceLink;
  /** Steps kept from the source run (a retry from the failure) or from pins (a test run): written succeeded, with their results, never run here. */
  carried?: readonly CarriedStep[];
  /**
   * For a sub-workflow's run: the source run's step that called it and which attempt. One run per attempt
   * (a unique index): a second insert for the same attempt fails as a unique violation.
   */
  calledBy?: { nodeId: string; attempt: number };
  /** Nodes a test run leaves out (not on its way to the node it tests): written skipped, never run here. */
  excluded?: readonly string[];
  /** For a run another run called: the stricter mode and guardrails it runs under, when its caller's are stricter than its own. */
  permissions?: RunPermissions | null;
  /** For a For each item's run: its item (`calledBy` names the loop's step and attempt; one run per item). */
  loop?: RunLoop | null;
}

/**
 * Creates a run of `version` with every node pending, in one transaction,
 * and returns it as GET /api/runs/{id} would right now, built from what was
 * written rather than read back (the hot path of every run).
 */
export async function insertRun(
  version: RunnableVersion,
  inputs: Record<string, unknown>,
  database: StudioDatabase = getDatabase(),
  start: RunStart = {},
): Promise<RunDetail> {
  const runId = start.runId ?? newId();
  const now = new Date().toISOString();
  const trigger = start.trigger ?? PERSON_TRIGGER;
  const columns = triggerColumns(trigger);
  const payloadText = start.triggerPayload === undefined ? null : JSON.stringify(start.triggerPayload);
  const inputOf = (nodeId: string) => (nodeId === trigger.nodeId ? payloadText : null);
  // A firing decides in Prisma's transaction (it reads before it writes); once per slot, not a hot path.
  const writer = start.withinTransaction || start.firing ? null : sqliteWriter(database);
  const sourceRunId = start.source?.id ?? null;
  const sourceKind: RunSourceKind | null = start.source?.kind ?? null;
  const carried = new Map((start.carried ?? []).map((step) => [step.nodeId, step]));
  const sourceNodeId = start.calledBy?.nodeId ?? null;
  const sourceAttempt = start.calledBy?.attempt ?? null;
  const permissions = start.permissions ? JSON.stringify(start.permissions) : null;
  const sourceItem = start.loop?.index ?? 0;
  const loop = start.loop ? JSON.stringify(start.loop) : null;
  // An item's run has steps for its loop's body alone.
  const definition = start.loop ? runDefinitionOf(version.definition, { loop: start.loop }) : version.definition;
  const runRow = {
    id: runId,
    workflowId: version.workflowId,
    versionId: version.versionId,
    status: "running",
    inputs: JSON.stringify(inputs),
    createdAt: now,
    startedAt: now,
    ...columns,
    sourceRunId,
    sourceKind,
    sourceNodeId,
    sourceAttempt,
    permissions,
    sourceItem,
    loop,
  };
  const excluded = new Set(start.excluded ?? []);
  const stepRows = () =>
    definition.nodes.map((node) => {
      const kept = carried.get(node.id);
      if (excluded.has(node.id)) return { id: newId(), runId, nodeId: node.id, status: "skipped", finishedAt: now };
      if (!kept) return { id: newId(), runId, nodeId: node.id, status: "pending", input: inputOf(node.id) };
      return { id: newId(), runId, nodeId: node.id, status: "succeeded", ...carriedColumns(kept), startedAt: kept.startedAt, finishedAt: kept.finishedAt };
    });
  const deliveryRow = start.delivery ? { id: newId(), ...start.delivery, runId, createdAt: now } : null;
  let held: FiringHeld | null = null;
  try {
    if (start.withinTransaction || !writer) {
      // The run and whatever must exist with it (the job that drives it, the delivery's key, the slot) commit together or not at all.
      const alsoDo = start.withinTransaction;
      const firing = start.firing;
      await database.$transaction(async (transaction) => {
        if (firing) {
          const admitted = await admitFiring(transaction, database, firing, runId);
          // What the slot records (skipped, queued) commits without a run.
          if (admitted !== "started") {
            held = admitted;
            return;
          }
        }
        await transaction.run.create({ data: runRow });
        await transaction.step.createMany({ data: stepRows() });
        if (deliveryRow) await transaction.webhookDelivery.create({ data: deliveryRow });
        if (alsoDo) await alsoDo(transaction, runId);
      }, BUSY_TRANSACTION);
    } else {
      const stored = sqliteDate(now);
      const date = (value: string | null) => (value === null ? null : sqliteDate(value));
      const writes: Write[] = [
        { sql: INSERT_RUN, values: [runId, version.workflowId, version.versionId, JSON.stringify(inputs), stored, stored, columns.trigger, columns.triggerNodeId, columns.triggerDetail, sourceRunId, sourceKind, sourceNodeId, sourceAttempt, permissions, sourceItem, loop] },
      ];
      for (const node of definition.nodes) {
        const kept = carried.get(node.id);
        if (excluded.has(node.id)) writes.push({ sql: INSERT_EXCLUDED_STEP, values: [newId(), runId, node.id, stored] });
        else if (!kept) writes.push({ sql: INSERT_STEP, values: [newId(), runId, node.id, inputOf(node.id)] });
        else {
          const { attempt, input, output, carriedFromRunId, carriedAs } = carriedColumns(kept);
          writes.push({ sql: INSERT_CARRIED_STEP, values: [newId(), runId, node.id, attempt, input, output, date(kept.startedAt), date(kept.finishedAt), carriedFromRunId, carriedAs] });
        }
      }
      if (deliveryRow) writes.push({ sql: INSERT_DELIVERY, values: [deliveryRow.id, deliveryRow.workflowId, deliveryRow.hookId, deliveryRow.idempotencyKey, runId, stored] });
      await writer.commit(writes);
    }
  } catch (error) {
    if (deliveryRow && isUniqueViolation(error)) throw new IdempotencyKeyTaken(deliveryRow.hookId, deliveryRow.idempotencyKey);
    if (start.firing && isUniqueViolation(error)) throw new SlotNotStarted("taken", start.firing.slot);
    throw error;
  }
  if (held && start.firing) throw new SlotNotStarted(held, start.firing.slot);
  return {
    id: runId,
    workflowId: version.workflowId,
    versionId: version.versionId,
    version: version.version,
    status: "running",
    inputs,
    output: null,
    error: null,
    lastSeq: 0,
    createdAt: now,
    startedAt: now,
    finishedAt: null,
    trigger,
    workflowName: version.workflowName,
    durationMs: null,
    totalApprovals: 0,
    pendingApprovals: 0,
    definition: definition,
    steps: definition.nodes.map((node) => {
      const kept = carried.get(node.id);
      const left = excluded.has(node.id);
      return {
        nodeId: node.id,
        status: kept ? "succeeded" : left ? "skipped" : "pending",
        input: kept ? (kept.input ?? null) : node.id === trigger.nodeId ? (start.triggerPayload ?? null) : null,
        output: kept?.output ?? null,
        error: null,
        errorKind: null,
        attempt: kept?.attempt ?? 0,
        retryAt: null,
        startedAt: kept?.startedAt ?? null,
        finishedAt: kept?.finishedAt ?? (left ? now : null),
        carriedFromRunId: kept?.fromRunId ?? null,
        carriedAs: kept?.as ?? null,
      };
    }),
    approvals: [],
    errorWorkflowRun: null,
    sourceRun: start.source ?? null,
    childRuns: [],
    permissions: start.permissions ?? null,
    loop: start.loop ? { nodeId: start.loop.nodeId, index: start.loop.index, count: start.loop.count, item: start.loop.item } : null,
    reruns: [],
    latestVersion: version.latestVersion,
  };
}

/** The stored columns of a kept step, as text where the table keeps JSON. */
function carriedColumns(step: CarriedStep): { attempt: number; input: string | null; output: string; carriedFromRunId: string | null; carriedAs: string | null } {
  return {
    attempt: step.attempt,
    input: step.input === undefined || step.input === null ? null : JSON.stringify(step.input),
    output: JSON.stringify(step.output),
    carriedFromRunId: step.fromRunId,
    carriedAs: step.as ?? null,
  };
}

/** Another delivery with the same idempotency key created a run first. */
export class IdempotencyKeyTaken extends Error {
  readonly marker = "neurosurfer.idempotency-key-taken";
  constructor(
    readonly hookId: string,
    readonly idempotencyKey: string,
  ) {
    super(`A delivery with idempotency key ${JSON.stringify(idempotencyKey)} was already received.`);
    this.name = "IdempotencyKeyTaken";
  }
  static isInstance(error: unknown): error is IdempotencyKeyTaken {
    return error instanceof Error && (error as { marker?: unknown }).marker === "neurosurfer.idempotency-key-taken";
  }
}

/** Creates a run of the workflow's newest version (or `version`); for callers that need only its id. */
export async function createRun(
  workflowId: string,
  inputs: Record<string, unknown>,
  options: { version?: number; trigger?: RunTrigger } = {},
  database: StudioDatabase = getDatabase(),
): Promise<{ runId: string; definition: WorkflowDefinition }> {
  const version = await findRunnableVersion(workflowId, options.version, database);
  const run = await insertRun(version, inputs, database, options.trigger ? { trigger: options.trigger } : {});
  return { runId: run.id, definition: version.definition };
}

/** The definition a run pinned: the version it was started with. */
export async function definitionOfRun(runId: string, database: StudioDatabase = getDatabase()): Promise<WorkflowDefinition> {
  const run = await database.run.findUnique({ where: { id: runId }, include: { version: true } });
  if (!run) throw new NotFoundError("run", runId);
  return WorkflowDefinitionSchema.parse(JSON.parse(run.version.definition));
}

export interface RunFilter {
  status?: RunStatus;
  /** What started the runs. */
  trigger?: RunTriggerKind;
  workflowId?: string;
  limit?: number;
  /** Runs created before this run id (ids sort by creation time). */
  before?: string;
}

export async function listRuns(filter: RunFilter = {}, database: StudioDatabase = getDatabase()): Promise<RunSummary[]> {
  const rows = await database.run.findMany({
    where: {
      ...(filter.status ? { status: filter.status } : {}),
      // A For each item's run is listed under its loop's step (the run page's item list), not among the runs: a loop
      // over a thousand items would bury everything else. Asking for them by what started them lists them.
      ...(filter.trigger ? { trigger: filter.trigger } : { trigger: { not: "for-each" } }),
      ...(filter.workflowId ? { workflowId: filter.workflowId } : {}),
      ...(filter.before ? { id: { lt: filter.before } } : {}),
    },
    orderBy: { id: "desc" },
    take: Math.min(filter.limit ?? 50, 500),
    include: {
      version: { select: { version: true } },
      workflow: { select: { name: true } },
      _count: { select: { approvals: true } },
    },
  });
  // The pending part of each count: one relation cannot be counted twice in one query.
  const pending = await database.approval.groupBy({ by: ["runId"], where: { runId: { in: rows.map((row) => row.id) }, status: "pending" }, _count: { _all: true } });
  const pendingByRun = new Map(pending.map((group) => [group.runId, group._count._all]));
  return rows.map((row) => summarise(row, { total: row._count.approvals, pending: pendingByRun.get(row.id) ?? 0 }));
}

export async function getRunDetail(runId: string, database: StudioDatabase = getDatabase()): Promise<RunDetail> {
  const row = await database.run.findUnique({
    where: { id: runId },
    include: {
      version: true,
      workflow: { select: { name: true, latestVersion: true } },
      steps: true,
      approvals: { orderBy: { createdAt: "asc" } },
    },
  });
  if (!row) throw new NotFoundError("run", runId);
  const loop = storedLoop(row.loop);
  // An item's run shows its loop's body, under the version's own permissions (`permissions` says what it runs under).
  const definition = runDefinitionOf(WorkflowDefinitionSchema.parse(JSON.parse(row.version.definition)), { loop });
  const order = new Map(definition.nodes.map((node, index) => [node.id, index]));
  const source = runSourceFromColumns(row.sourceRunId, row.sourceKind);
  const [errorWorkflowRun, sourceRun, reruns, childRuns] = await Promise.all([
    database.run.findFirst({ where: { sourceRunId: runId, trigger: "error-workflow" }, orderBy: { id: "asc" }, select: RUN_LINK }),
    source ? database.run.findUnique({ where: { id: source.runId }, select: { ...RUN_LINK, version: { select: { definition: true } } } }) : null,
    database.run.findMany({
      where: { sourceRunId: runId, sourceKind: { in: [...RERUN_KINDS] } },
      orderBy: { id: "desc" },
      take: MAX_LISTED_RERUNS,
      select: { id: true, status: true, sourceKind: true, createdAt: true, version: { select: { version: true } } },
    }),
    database.run.findMany({
      where: { sourceRunId: runId, sourceKind: { in: [...CHILD_RUN_KINDS] } },
      orderBy: [{ sourceAttempt: "asc" }, { sourceItem: "asc" }, { id: "asc" }],
      select: { ...RUN_LINK, sourceNodeId: true, sourceAttempt: true, sourceKind: true, sourceItem: true, version: { select: { version: true } } },
    }),
  ]);
  return {
    ...summarise(row, { total: row.approvals.length, pending: row.approvals.filter((approval) => approval.status === "pending").length }),
    definition,
    steps: row.steps.map(toStepRecord).sort((left, right) => (order.get(left.nodeId) ?? 0) - (order.get(right.nodeId) ?? 0)),
    approvals: row.approvals.map(toApprovalRecord),
    errorWorkflowRun: errorWorkflowRun ? toRunLink(errorWorkflowRun) : null,
    sourceRun: sourceRun && source ? { ...toRunLink(sourceRun), kind: source.kind, ...callingStep(row.sourceNodeId, sourceRun.version.definition) } : null,
    childRuns: childRuns.map((child) => ({
      ...toRunLink(child),
      nodeId: child.sourceNodeId ?? "",
      attempt: child.sourceAttempt ?? 1,
      version: child.version.version,
      kind: child.sourceKind === "for-each" ? ("for-each" as const) : ("sub-workflow" as const),
      item: child.sourceItem,
    })),
    permissions: storedPermissions(row.permissions),
    loop: loop ? { nodeId: loop.nodeId, index: loop.index, count: loop.count, item: loop.item } : null,
    reruns: reruns.map(
      (rerun): RerunLink => ({
        id: rerun.id,
        kind: rerun.sourceKind === "retry-from-failure" ? "retry-from-failure" : "run-again",
        status: rerun.status as RunStatus,
        version: rerun.version.version,
        createdAt: rerun.createdAt.toISOString(),
      }),
    ),
    latestVersion: row.workflow.latestVersion,
  };
}

const RUN_LINK = { id: true, workflowId: true, status: true, workflow: { select: { name: true } } } as const;

/** The step of a calling run's definition (stored JSON) that called a sub-workflow's run, as its page names it. */
function callingStep(nodeId: string | null, definitionJson: string): { nodeId?: string; nodeLabel?: string } {
  if (nodeId === null) return {};
  const definition = WorkflowDefinitionSchema.safeParse(JSON.parse(definitionJson));
  const node = definition.success ? definition.data.nodes.find((each) => each.id === nodeId) : undefined;
  return { nodeId, nodeLabel: node?.label ?? nodeId };
}

function toRunLink(row: { id: string; workflowId: string; status: string; workflow: { name: string } }): RunLink {
  return { id: row.id, workflowId: row.workflowId, workflowName: row.workflow.name, status: row.status as RunStatus };
}

/**
 * The run an error workflow started for the failed run `failedRunId`, if one
 * was started: a failed run whose end is recorded again (after a restart cut
 * it short) finds it instead of starting a second one.
 */
export async function errorWorkflowRunOf(failedRunId: string, database: StudioDatabase = getDatabase()): Promise<string | null> {
  const row = await database.run.findFirst({ where: { sourceRunId: failedRunId, trigger: "error-workflow" }, select: { id: true } });
  return row?.id ?? null;
}

const READ_EVENTS = `SELECT "runId", "seq", "type", "nodeId", "payload", "createdAt" FROM "RunEvent" WHERE "runId" = ? AND "seq" > ? ORDER BY "seq" LIMIT ?`;
const RUN_STATUS = `SELECT "status" FROM "Run" WHERE "id" = ?`;

/** Events after `afterSeq`, in order; at most `limit`. Read by every event stream, so a prepared statement where the client has a path for one. */
export async function readEvents(
  runId: string,
  afterSeq: number,
  limit = 500,
  database: StudioDatabase = getDatabase(),
): Promise<RunEvent[]> {
  const prepared = await preparedRows<{ runId: string; seq: number; type: string; nodeId: string | null; payload: string; createdAt: unknown }>(
    database,
    READ_EVENTS,
    [runId, afterSeq, limit],
  );
  if (prepared) return prepared.map((row) => toRunEvent({ ...row, createdAt: new Date(readDate(row.createdAt)!) }));
  const rows = await database.runEvent.findMany({
    where: { runId, seq: { gt: afterSeq } },
    orderBy: { seq: "asc" },
    take: limit,
  });
  return rows.map(toRunEvent);
}

/** A stored event as the JSON text of its RunEvent (what an event stream sends), with its sequence number and type. */
export interface EventText {
  seq: number;
  type: string;
  json: string;
}

/**
 * Events after `afterSeq` as JSON text, in order; at most `limit`. The same
 * events as `readEvents`, but put together from their columns around the
 * payload's stored text: an event stream replays a run's events without
 * parsing each payload only to serialise it again.
 */
export async function readEventTexts(runId: string, afterSeq: number, limit = 500, database: StudioDatabase = getDatabase()): Promise<EventText[]> {
  const prepared = await preparedRows<{ runId: string; seq: number; type: string; nodeId: string | null; payload: string; createdAt: unknown }>(
    database,
    READ_EVENTS,
    [runId, afterSeq, limit],
  );
  if (!prepared) return (await readEvents(runId, afterSeq, limit, database)).map((event) => ({ seq: event.seq, type: event.type, json: JSON.stringify(event) }));
  return prepared.map((row) => {
    // The payload is the JSON.stringify text the commit stored (one line, an object); anything else is read as readEvents reads it.
    const payload = row.payload.startsWith("{") ? row.payload : JSON.stringify(toRunEvent({ ...row, createdAt: new Date(0) }).payload);
    const createdAt = storedDateIso(row.createdAt);
    const nodeId = row.nodeId === null ? "null" : JSON.stringify(row.nodeId);
    return {
      seq: row.seq,
      type: row.type,
      json: `{"runId":${JSON.stringify(row.runId)},"seq":${row.seq},"type":${JSON.stringify(row.type)},"nodeId":${nodeId},"payload":${payload},"createdAt":"${createdAt}"}`,
    };
  });
}

/** A stored DateTime as ISO text: SQLite's `…+00:00` form by slicing (the hot case), anything else through `readDate`. */
function storedDateIso(value: unknown): string {
  if (typeof value === "string" && value.length === 29 && value.endsWith("+00:00") && value[10] === "T") return `${value.slice(0, 23)}Z`;
  return readDate(value)!;
}

/** Where a run stands, or null when there is no such run: what an event stream asks when it opens and when it may end. */
const RUN_OUTCOME = `SELECT "status", "output", "error" FROM "Run" WHERE "id" = ?`;

/** A run's status and, once finished, its output or error; null for an unknown run. */
export async function runOutcome(runId: string, database: StudioDatabase = getDatabase()): Promise<{ status: RunStatus; output: unknown; error: string | null } | null> {
  const prepared = await preparedRows<{ status: string; output: string | null; error: string | null }>(database, RUN_OUTCOME, [runId]);
  const row = prepared ? prepared[0] : await database.run.findUnique({ where: { id: runId }, select: { status: true, output: true, error: true } });
  if (!row) return null;
  return { status: row.status as RunStatus, output: row.output === null ? null : (JSON.parse(row.output) as unknown), error: row.error };
}

export async function runStatus(runId: string, database: StudioDatabase = getDatabase()): Promise<RunStatus | null> {
  const prepared = await preparedRows<{ status: string }>(database, RUN_STATUS, [runId]);
  const row = prepared ? prepared[0] : await database.run.findUnique({ where: { id: runId }, select: { status: true } });
  return row ? (row.status as RunStatus) : null;
}

export async function runExists(runId: string, database: StudioDatabase = getDatabase()): Promise<RunRecord | null> {
  const row = await database.run.findUnique({ where: { id: runId }, include: { version: { select: { version: true } } } });
  return row ? toRunRecord(row) : null;
}

export async function listApprovals(
  filter: { status?: ApprovalStatus; runId?: string; limit?: number } = {},
  database: StudioDatabase = getDatabase(),
): Promise<ApprovalDetail[]> {
  const rows = await database.approval.findMany({
    where: { ...(filter.status ? { status: filter.status } : {}), ...(filter.runId ? { runId: filter.runId } : {}) },
    orderBy: { createdAt: filter.status === "pending" ? "asc" : "desc" },
    take: Math.min(filter.limit ?? 200, 1000),
    include: { run: { include: { workflow: { select: { name: true } }, version: { select: { definition: true } } } } },
  });
  const definitions = new Map<string, WorkflowDefinition>();
  const definitionOf = (versionId: string, json: string) => {
    let definition = definitions.get(versionId);
    if (!definition) {
      definition = WorkflowDefinitionSchema.parse(JSON.parse(json));
      definitions.set(versionId, definition);
    }
    return definition;
  };
  // The runs that called sub-workflows' runs, read once for all their approvals.
  const calledRun = (run: { sourceKind: string | null; sourceRunId: string | null }) => (CHILD_RUN_KINDS as readonly (string | null)[]).includes(run.sourceKind) && run.sourceRunId !== null;
  const callerIds = [...new Set(rows.flatMap((row) => (calledRun(row.run) ? [row.run.sourceRunId!] : [])))];
  const callers = new Map(
    callerIds.length === 0
      ? []
      : (
          await database.run.findMany({
            where: { id: { in: callerIds } },
            select: { id: true, workflowId: true, versionId: true, workflow: { select: { name: true } }, version: { select: { definition: true } } },
          })
        ).map((caller) => [caller.id, caller]),
  );
  return rows.map((row) => {
    const definition = definitionOf(row.run.versionId, row.run.version.definition);
    const node = definition.nodes.find((each) => each.id === row.nodeId);
    const caller = calledRun(row.run) ? callers.get(row.run.sourceRunId!) : undefined;
    const loop = row.run.sourceKind === "for-each" ? storedLoop(row.run.loop) : null;
    const callingNode = caller && row.run.sourceNodeId ? definitionOf(caller.versionId, caller.version.definition).nodes.find((each) => each.id === row.run.sourceNodeId) : undefined;
    return {
      ...toApprovalRecord(row),
      workflowId: row.run.workflowId,
      workflowName: row.run.workflow.name,
      calledBy: caller
        ? {
            runId: caller.id,
            workflowId: caller.workflowId,
            workflowName: caller.workflow.name,
            nodeId: row.run.sourceNodeId ?? "",
            nodeLabel: callingNode?.label ?? row.run.sourceNodeId ?? "",
            item: loop ? { index: loop.index, count: loop.count } : null,
          }
        : null,
      nodeLabel: node?.label ?? (node?.kind === "tool" ? node.tool : row.nodeId === "__run__" ? "Plan" : row.nodeId),
      runStatus: row.run.status as RunStatus,
    };
  });
}

export async function getApprovalDetail(id: string, database: StudioDatabase = getDatabase()): Promise<ApprovalDetail> {
  const row = await database.approval.findUnique({ where: { id }, select: { runId: true } });
  if (!row) throw new NotFoundError("approval", id);
  const [detail] = (await listApprovals({ runId: row.runId, limit: 1000 }, database)).filter((each) => each.id === id);
  if (!detail) throw new NotFoundError("approval", id);
  return detail;
}

export async function countPendingApprovals(database: StudioDatabase = getDatabase()): Promise<number> {
  return database.approval.count({ where: { status: "pending" } });
}

type SummaryRow = Parameters<typeof toRunRecord>[0] & { workflow: { name: string } };

function summarise(row: SummaryRow, approvals: { total: number; pending: number }): RunSummary {
  const record = toRunRecord(row);
  return {
    ...record,
    workflowName: row.workflow.name,
    durationMs: record.finishedAt ? Date.parse(record.finishedAt) - Date.parse(record.startedAt) : null,
    totalApprovals: approvals.total,
    pendingApprovals: approvals.pending,
  };
}
