import { WorkflowDefinitionSchema, type WorkflowDefinition } from "@/lib/workflow/definition";
import type { ApprovalDetail } from "@/lib/contracts/approval";
import type { RunDetail, RunSummary } from "@/lib/contracts/run";
import type { ApprovalStatus, RunEvent, RunRecord, RunStatus } from "@/lib/workflow/run-types";

export type { ApprovalDetail, RunDetail, RunSummary };
import { getDatabase, sqliteConnection, type StudioDatabase } from "./database";
import { NotFoundError } from "./errors";
import { newId } from "./ids";
import { sqliteDate, statement } from "./prepared";
import { toApprovalRecord, toRunEvent, toRunRecord, toStepRecord } from "./run-store";

/**
 * Reads and creates runs for the API. The engine writes everything else
 * through PrismaRunStore. Each function takes the database last.
 */

/** Parsed definitions by version id: a version never changes once saved, so parsing once is enough. */
const definitionsByVersion = new Map<string, WorkflowDefinition>();
const DEFINITION_CACHE_SIZE = 200;

function parsedDefinition(versionId: string, json: string): WorkflowDefinition {
  let definition = definitionsByVersion.get(versionId);
  if (!definition) {
    definition = WorkflowDefinitionSchema.parse(JSON.parse(json));
    if (definitionsByVersion.size >= DEFINITION_CACHE_SIZE) definitionsByVersion.delete(definitionsByVersion.keys().next().value!);
    definitionsByVersion.set(versionId, definition);
  }
  return definition;
}

const FIND_VERSION = `SELECT v."id" AS "id", v."definition" AS "definition" FROM "Workflow" w
  JOIN "WorkflowVersion" v ON v."workflowId" = w."id" AND v."version" = COALESCE(?, w."latestVersion") WHERE w."id" = ?`;
const INSERT_RUN = `INSERT INTO "Run" ("id", "workflowId", "versionId", "status", "inputs", "lastSeq", "createdAt", "startedAt")
  VALUES (?, ?, ?, 'running', ?, 0, ?, ?)`;
const INSERT_STEP = `INSERT INTO "Step" ("id", "runId", "nodeId", "status", "attempt") VALUES (?, ?, ?, 'pending', 0)`;

/**
 * Creates a run of the workflow's newest version (or `version`), with every
 * node pending, in one transaction. On the hot path of every run, so it uses
 * prepared statements on Prisma's connection where there is one.
 */
export async function createRun(
  workflowId: string,
  inputs: Record<string, unknown>,
  options: { version?: number } = {},
  database: StudioDatabase = getDatabase(),
): Promise<{ runId: string; definition: WorkflowDefinition }> {
  const connection = await sqliteConnection(database);
  if (!connection) return createRunWithPrisma(workflowId, inputs, options, database);
  const sqlite = connection.database;
  const row = statement(sqlite, FIND_VERSION).get(options.version ?? null, workflowId) as { id: string; definition: string } | undefined;
  if (!row) {
    const exists = statement(sqlite, `SELECT 1 FROM "Workflow" WHERE "id" = ?`).get(workflowId);
    if (!exists) throw new NotFoundError("workflow", workflowId);
    throw new NotFoundError("workflow version", `${workflowId}@${options.version}`);
  }
  const definition = parsedDefinition(row.id, row.definition);
  const runId = newId();
  const now = sqliteDate(new Date().toISOString());
  const transaction = await connection.transaction();
  try {
    statement(sqlite, INSERT_RUN).run(runId, workflowId, row.id, JSON.stringify(inputs), now, now);
    for (const node of definition.nodes) statement(sqlite, INSERT_STEP).run(newId(), runId, node.id);
    statement(sqlite, "COMMIT").run();
  } catch (error) {
    if (sqlite.inTransaction) statement(sqlite, "ROLLBACK").run();
    throw error;
  } finally {
    await transaction.release();
  }
  return { runId, definition };
}

async function createRunWithPrisma(
  workflowId: string,
  inputs: Record<string, unknown>,
  options: { version?: number },
  database: StudioDatabase,
): Promise<{ runId: string; definition: WorkflowDefinition }> {
  const workflow = await database.workflow.findUnique({ where: { id: workflowId }, select: { latestVersion: true } });
  if (!workflow) throw new NotFoundError("workflow", workflowId);
  const versionNumber = options.version ?? workflow.latestVersion;
  const version = await database.workflowVersion.findUnique({
    where: { workflowId_version: { workflowId, version: versionNumber } },
  });
  if (!version) throw new NotFoundError("workflow version", `${workflowId}@${versionNumber}`);
  const definition = parsedDefinition(version.id, version.definition);
  const runId = newId();
  await database.$transaction([
    database.run.create({
      data: { id: runId, workflowId, versionId: version.id, status: "running", inputs: JSON.stringify(inputs) },
    }),
    database.step.createMany({
      data: definition.nodes.map((node) => ({ id: newId(), runId, nodeId: node.id, status: "pending" })),
    }),
  ]);
  return { runId, definition };
}

/** The definition a run pinned: the version it was started with. */
export async function definitionOfRun(runId: string, database: StudioDatabase = getDatabase()): Promise<WorkflowDefinition> {
  const run = await database.run.findUnique({ where: { id: runId }, include: { version: true } });
  if (!run) throw new NotFoundError("run", runId);
  return WorkflowDefinitionSchema.parse(JSON.parse(run.version.definition));
}

export interface RunFilter {
  status?: RunStatus;
  workflowId?: string;
  limit?: number;
  /** Runs created before this run id (ids sort by creation time). */
  before?: string;
}

export async function listRuns(filter: RunFilter = {}, database: StudioDatabase = getDatabase()): Promise<RunSummary[]> {
  const rows = await database.run.findMany({
    where: {
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.workflowId ? { workflowId: filter.workflowId } : {}),
      ...(filter.before ? { id: { lt: filter.before } } : {}),
    },
    orderBy: { id: "desc" },
    take: Math.min(filter.limit ?? 50, 500),
    include: {
      version: { select: { version: true } },
      workflow: { select: { name: true } },
      _count: { select: { approvals: { where: { status: "pending" } } } },
    },
  });
  return rows.map((row) => summarise(row));
}

export async function getRunDetail(runId: string, database: StudioDatabase = getDatabase()): Promise<RunDetail> {
  const row = await database.run.findUnique({
    where: { id: runId },
    include: {
      version: true,
      workflow: { select: { name: true } },
      steps: true,
      approvals: { orderBy: { createdAt: "asc" } },
      _count: { select: { approvals: { where: { status: "pending" } } } },
    },
  });
  if (!row) throw new NotFoundError("run", runId);
  const definition = WorkflowDefinitionSchema.parse(JSON.parse(row.version.definition));
  const order = new Map(definition.nodes.map((node, index) => [node.id, index]));
  return {
    ...summarise(row),
    definition,
    steps: row.steps.map(toStepRecord).sort((left, right) => (order.get(left.nodeId) ?? 0) - (order.get(right.nodeId) ?? 0)),
    approvals: row.approvals.map(toApprovalRecord),
  };
}

/** Events after `afterSeq`, in order; at most `limit`. */
export async function readEvents(
  runId: string,
  afterSeq: number,
  limit = 500,
  database: StudioDatabase = getDatabase(),
): Promise<RunEvent[]> {
  const rows = await database.runEvent.findMany({
    where: { runId, seq: { gt: afterSeq } },
    orderBy: { seq: "asc" },
    take: limit,
  });
  return rows.map(toRunEvent);
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
  return rows.map((row) => {
    let definition = definitions.get(row.run.versionId);
    if (!definition) {
      definition = WorkflowDefinitionSchema.parse(JSON.parse(row.run.version.definition));
      definitions.set(row.run.versionId, definition);
    }
    const node = definition.nodes.find((each) => each.id === row.nodeId);
    return {
      ...toApprovalRecord(row),
      workflowId: row.run.workflowId,
      workflowName: row.run.workflow.name,
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

type SummaryRow = Parameters<typeof toRunRecord>[0] & { workflow: { name: string }; _count: { approvals: number } };

function summarise(row: SummaryRow): RunSummary {
  const record = toRunRecord(row);
  return {
    ...record,
    workflowName: row.workflow.name,
    durationMs: record.finishedAt ? Date.parse(record.finishedAt) - Date.parse(record.startedAt) : null,
    pendingApprovals: row._count.approvals,
  };
}
