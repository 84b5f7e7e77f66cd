/**
 * Which version a run starts from: a workflow's newest (or asked-for) version,
 * an error workflow's, the one a run pinned, and the parsed definitions of
 * versions read before (a version never changes once saved).
 */
import { WorkflowDefinitionSchema, type WorkflowDefinition } from "@/lib/workflow/definition";
import { getDatabase, type StudioDatabase } from "./database";
import { NotFoundError } from "./errors";
import { preparedRows } from "./hot-path";

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
 * workflow or version. On the hot path of every run, so one prepared statement
 * (on Prisma's SQLite connection, or the PostgreSQL statement pool) where there
 * is one: on PostgreSQL it was two Prisma queries, each compiled anew.
 */
export async function findRunnableVersion(
  workflowId: string,
  version: number | undefined,
  database: StudioDatabase = getDatabase(),
): Promise<RunnableVersion> {
  const rows = await preparedRows<{ id: string; version: number; definition: string; workflowName: string; latestVersion: number }>(database, FIND_VERSION, [
    version ?? null,
    workflowId,
  ]);
  if (rows === null) return findRunnableVersionWithPrisma(workflowId, version, database);
  const row = rows[0];
  if (!row) {
    const exists = await preparedRows<{ found: number }>(database, `SELECT 1 AS "found" FROM "Workflow" WHERE "id" = ?`, [workflowId]);
    if (!exists?.length) throw new NotFoundError("workflow", workflowId);
    throw new NotFoundError("workflow version", `${workflowId}@${version}`);
  }
  return {
    workflowId,
    workflowName: row.workflowName,
    versionId: row.id,
    version: Number(row.version),
    latestVersion: Number(row.latestVersion),
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

/** The definition a run pinned: the version it was started with. */
export async function definitionOfRun(runId: string, database: StudioDatabase = getDatabase()): Promise<WorkflowDefinition> {
  const run = await database.run.findUnique({ where: { id: runId }, include: { version: true } });
  if (!run) throw new NotFoundError("run", runId);
  return WorkflowDefinitionSchema.parse(JSON.parse(run.version.definition));
}
