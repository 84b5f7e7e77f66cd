/**
 * Creating a run: the run, its steps (pending, kept or left out) and what it
 * is recorded with (a webhook delivery's key, a schedule's slot, the request
 * that a worker drive it), in one statement or transaction, answered as GET
 * /api/runs/{id} would answer.
 */
import { NO_USAGE } from "@/lib/contracts/usage";
import type { RunDetail, RunLoop, RunPermissions, RunSourceKind, RunSourceLink } from "@/lib/contracts/run";
import { PERSON_TRIGGER, triggerColumns, type RunTrigger } from "@/lib/contracts/run-trigger";
import type { CarriedStep } from "@/lib/workflow/carry-over";
import type { WorkflowDefinition } from "@/lib/workflow/definition";
import { runDefinitionOf } from "@/lib/workflow/run-definition";
import { BUSY_TRANSACTION, getDatabase, postgresStatements, providerOf, sqliteWriter, type StudioDatabase } from "./database";
import { combineWrites } from "./combined-statement";
import { newId } from "./ids";
import { postgresDate, postgresPlaceholders } from "./postgres-statements";
import { sqliteDate } from "./prepared";
import { isUniqueViolation } from "./prisma-errors";
import { POSTGRES_STEP_COLUMN_TYPES, type Write } from "./run-commit-writes";
import { starterOf } from "./run-summary";
import { findRunnableVersion, type RunnableVersion } from "./run-versions";
import { admitFiring, SlotNotStarted, type FiringHeld, type SlotFiring } from "./schedule-store";
import { markedError } from "@/lib/marked-error";

const INSERT_RUN = `INSERT INTO "Run" ("id", "workflowId", "versionId", "status", "inputs", "lastSeq", "createdAt", "startedAt", "trigger", "triggerNodeId", "triggerDetail", "sourceRunId", "sourceKind", "sourceNodeId", "sourceAttempt", "permissions", "sourceItem", "loop", "startedById", "startedByLabel")
  VALUES (?, ?, ?, 'running', ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
/** The columns a new step is written with. */
const NEW_STEP_COLUMNS = ["id", "runId", "nodeId", "status", "attempt", "input", "output", "startedAt", "finishedAt", "carriedFromRunId", "carriedAs"] as const;
const STEP_COLUMNS = NEW_STEP_COLUMNS.map((name) => `"${name}"`).join(", ");
const INSERT_STEP = `INSERT INTO "Step" (${STEP_COLUMNS}) VALUES (${NEW_STEP_COLUMNS.map(() => "?").join(", ")})`;
/** PostgreSQL: every step of the run in one statement (one round trip), its rows as a JSON array. */
const INSERT_STEPS_FROM_JSON = `INSERT INTO "Step" (${STEP_COLUMNS}) SELECT ${STEP_COLUMNS} FROM json_to_recordset(?::json)
  AS s(${NEW_STEP_COLUMNS.map((name) => `"${name}" ${POSTGRES_STEP_COLUMN_TYPES[name]}`).join(", ")})`;
const INSERT_DELIVERY = `INSERT INTO "WebhookDelivery" ("id", "workflowId", "hookId", "idempotencyKey", "runId", "createdAt") VALUES (?, ?, ?, ?, ?, ?)`;

/** How a run starts, besides its version and inputs. */
/** Who started a run: the person's id, and how they were named then (with a personal token: its name too). */
export interface RunStarter {
  personId: string;
  label: string;
}

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
  /**
   * Rows that must commit with the run (the request that a worker drive it): written with it, in the run's own
   * statement on PostgreSQL's hot path (one round trip), else in its transaction. SQL with `?` placeholders.
   */
  alongWith?: (runId: string) => Write[];
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
  /** The person (or their token) who started it; absent for webhooks, schedules and runs other runs start. */
  startedBy?: RunStarter | null;
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
  // A firing decides in Prisma's transaction (it reads before it writes); once per slot, not a hot path. The SQLite
  // writer's thread cannot run a caller's statements in its transaction: what must commit with the run goes by Prisma.
  const writer = start.firing || start.alongWith ? null : sqliteWriter(database);
  const alongWith = start.alongWith?.(runId) ?? [];
  const statements = start.firing ? null : postgresStatements(database);
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
    startedById: start.startedBy?.personId ?? null,
    startedByLabel: start.startedBy?.label ?? null,
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
    if (writer || statements) {
      const dialect = writer ? SQLITE_CREATION : POSTGRES_CREATION;
      const date = (value: string | null) => (value === null ? null : dialect.date(value));
      const stored = dialect.date(now);
      const steps: StepInsert[] = definition.nodes.map((node) => {
        const kept = carried.get(node.id);
        if (excluded.has(node.id)) return { ...NO_RESULT, id: newId(), nodeId: node.id, status: "skipped", finishedAt: stored };
        if (!kept) return { ...NO_RESULT, id: newId(), nodeId: node.id, status: "pending", input: inputOf(node.id) };
        return { id: newId(), nodeId: node.id, status: "succeeded", ...carriedColumns(kept), startedAt: date(kept.startedAt), finishedAt: date(kept.finishedAt) };
      });
      const writes: Write[] = [
        { sql: INSERT_RUN, values: [runId, version.workflowId, version.versionId, JSON.stringify(inputs), stored, stored, columns.trigger, columns.triggerNodeId, columns.triggerDetail, sourceRunId, sourceKind, sourceNodeId, sourceAttempt, permissions, sourceItem, loop, runRow.startedById, runRow.startedByLabel] },
        ...dialect.insertSteps(runId, steps),
      ];
      if (deliveryRow) writes.push({ sql: INSERT_DELIVERY, values: [deliveryRow.id, deliveryRow.workflowId, deliveryRow.hookId, deliveryRow.idempotencyKey, runId, stored] });
      if (writer) await writer.commit(writes);
      else {
        // The run, its steps and whatever must exist with it (the request that drives it) in one prepared statement.
        const { text, values } = combineWrites([...writes, ...alongWith]);
        await statements!.run(text, values);
      }
    } else {
      // The run and whatever must exist with it (the request that drives it, the delivery's key, the slot) commit together or not at all.
      const firing = start.firing;
      const placeholders = providerOf(database) === "postgresql" ? postgresPlaceholders : (sql: string) => sql;
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
        for (const write of alongWith) await transaction.$executeRawUnsafe(placeholders(write.sql), ...write.values);
      }, BUSY_TRANSACTION);
    }
  } catch (error) {
    if (deliveryRow && isUniqueViolation(error)) throw new IdempotencyKeyTaken(deliveryRow.hookId, deliveryRow.idempotencyKey);
    if (start.firing && isUniqueViolation(error)) throw new SlotNotStarted("taken", start.firing.slot);
    throw error;
  }
  if (held && start.firing) throw new SlotNotStarted(held, start.firing.slot);
  return {
    // A run just made has called no model; its page reads the prices (getRunDetail) when it opens.
    usage: NO_USAGE,
    modelPrices: [],
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
    startedBy: starterOf(runRow),
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

/** A new step's row, its DateTimes as its database stores them. */
interface StepInsert {
  id: string;
  nodeId: string;
  status: "pending" | "skipped" | "succeeded";
  attempt: number;
  input: string | null;
  output: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  carriedFromRunId: string | null;
  carriedAs: string | null;
}

const NO_RESULT = { attempt: 0, input: null, output: null, startedAt: null, finishedAt: null, carriedFromRunId: null, carriedAs: null } as const;

/** How a run's rows go in on each prepared-statement path. */
interface CreationDialect {
  date: (value: string) => string;
  insertSteps: (runId: string, steps: StepInsert[]) => Write[];
}

/** SQLite: a statement per step (in process, on the writer's thread, each costs microseconds). */
const SQLITE_CREATION: CreationDialect = {
  date: sqliteDate,
  insertSteps: (runId, steps) =>
    steps.map((step) => ({
      sql: INSERT_STEP,
      values: [step.id, runId, step.nodeId, step.status, step.attempt, step.input, step.output, step.startedAt, step.finishedAt, step.carriedFromRunId, step.carriedAs],
    })),
};

/** PostgreSQL: one statement for all of them, each statement being a round trip to the server. */
const POSTGRES_CREATION: CreationDialect = {
  date: postgresDate,
  insertSteps: (runId, steps) => [{ sql: INSERT_STEPS_FROM_JSON, values: [JSON.stringify(steps.map((step) => ({ ...step, runId })))] }],
};

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
export class IdempotencyKeyTaken extends markedError("neurosurfer.idempotency-key-taken", "IdempotencyKeyTaken") {
  constructor(
    readonly hookId: string,
    readonly idempotencyKey: string,
  ) {
    super(`A delivery with idempotency key ${JSON.stringify(idempotencyKey)} was already received.`);
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
