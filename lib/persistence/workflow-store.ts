import { withFreshHookIds } from "@/nodes/webhook/definition";
import {
  WorkflowDefinitionSchema,
  type WorkflowDefinition,
  type WorkflowDefinitionInput,
} from "@/lib/workflow/definition";
import type { Prisma } from "./generated/sqlite/client";
import { getDatabase, type StudioDatabase } from "./database";
import { ConflictError, NotFoundError } from "./errors";
import { newId } from "./ids";
import { isUniqueViolation } from "./prisma-errors";

/**
 * Workflows and their versions. Every save stores the whole definition as a
 * new version; the Workflow row mirrors the newest one's name and description
 * for lists. Definitions are parsed with WorkflowDefinitionSchema on the way
 * in and on the way out. Each function takes the database last, default the
 * process's (`getDatabase()`).
 */

/** A workflow's own columns, as the list and the editor both show them. */
export interface WorkflowFields {
  id: string;
  name: string;
  description: string;
  latestVersion: number;
  /** The version its triggers start; null while unpublished. */
  publishedVersion: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface WorkflowDetail extends WorkflowFields {
  definition: WorkflowDefinition;
}

export interface WorkflowVersionSummary {
  id: string;
  version: number;
  createdAt: Date;
}

export interface WorkflowVersionDetail extends WorkflowVersionSummary {
  workflowId: string;
  definition: WorkflowDefinition;
}

export interface SaveWorkflowOptions {
  /** The version the editor started from; a newer stored one means someone else saved: ConflictError. */
  expectedVersion?: number;
}

/** Stores a new workflow at version 1. */
export async function createWorkflow(
  definition: WorkflowDefinitionInput,
  database: StudioDatabase = getDatabase(),
  /** Whose it is; null: the first owner's (example workflows, the command line). */
  ownerId: string | null = null,
): Promise<WorkflowDetail> {
  const parsed = WorkflowDefinitionSchema.parse(definition);
  const id = newId();
  const versionId = newId();
  const [workflow] = await database.$transaction([
    database.workflow.create({
      data: { id, name: parsed.name, description: parsed.description, latestVersion: 1, ownerId },
    }),
    database.workflowVersion.create({
      data: { id: versionId, workflowId: id, version: 1, definition: JSON.stringify(parsed) },
    }),
  ]);
  return { ...workflowFields(workflow), definition: parsed };
}

/** Every workflow's own columns, oldest first (what the MCP endpoint serves as tools); lists page instead (workflow-list.ts). */
export async function everyWorkflow(database: StudioDatabase = getDatabase(), visible: Prisma.WorkflowWhereInput | null = null): Promise<WorkflowFields[]> {
  const rows = await database.workflow.findMany({ ...(visible ? { where: visible } : {}), orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(workflowFields);
}

/**
 * The newest definition of each of `workflows`, by id, in a query per
 * DEFINITION_BATCH of them rather than one per workflow (the MCP tool list
 * of a studio with thousands of workflows).
 */
export async function newestDefinitions(
  workflows: readonly Pick<WorkflowFields, "id" | "latestVersion">[],
  database: StudioDatabase = getDatabase(),
): Promise<Map<string, WorkflowDefinition>> {
  const definitions = new Map<string, WorkflowDefinition>();
  for (let start = 0; start < workflows.length; start += DEFINITION_BATCH) {
    const batch = workflows.slice(start, start + DEFINITION_BATCH);
    const rows = await database.workflowVersion.findMany({
      where: { OR: batch.map((workflow) => ({ workflowId: workflow.id, version: workflow.latestVersion })) },
      select: { workflowId: true, version: true, definition: true },
    });
    for (const row of rows) definitions.set(row.workflowId, parseStoredDefinition(row.definition, row.workflowId, row.version));
  }
  return definitions;
}

const DEFINITION_BATCH = 200;

/** The workflow with its newest definition; NotFoundError for an unknown id. */
export async function getWorkflow(id: string, database: StudioDatabase = getDatabase()): Promise<WorkflowDetail> {
  const workflow = await database.workflow.findUnique({ where: { id } });
  if (!workflow) throw new NotFoundError("workflow", id);
  const version = await database.workflowVersion.findUnique({
    where: { workflowId_version: { workflowId: id, version: workflow.latestVersion } },
  });
  if (!version) throw new Error(`Workflow ${id} names version ${workflow.latestVersion} as its newest, but that version is not stored.`);
  return { ...workflowFields(workflow), definition: parseStoredDefinition(version.definition, id, version.version) };
}

/**
 * Stores `definition` as the next version and mirrors its name and
 * description, in one transaction. NotFoundError for an unknown id;
 * ConflictError when `expectedVersion` is given and is no longer the newest.
 */
export async function saveWorkflow(
  id: string,
  definition: WorkflowDefinitionInput,
  options: SaveWorkflowOptions = {},
  database: StudioDatabase = getDatabase(),
): Promise<WorkflowDetail> {
  const parsed = WorkflowDefinitionSchema.parse(definition);
  try {
    return await database.$transaction(async (transaction) => {
      // Bumping the counter first takes SQLite's write lock, so concurrent
      // saves queue up and each gets its own version number.
      const bumped = await transaction.workflow.updateMany({
        where: { id, ...(options.expectedVersion !== undefined ? { latestVersion: options.expectedVersion } : {}) },
        data: { latestVersion: { increment: 1 }, name: parsed.name, description: parsed.description },
      });
      if (bumped.count === 0) {
        const current = await transaction.workflow.findUnique({ where: { id }, select: { latestVersion: true } });
        if (!current) throw new NotFoundError("workflow", id);
        throw staleVersion(id, options.expectedVersion, current.latestVersion);
      }
      const workflow = await transaction.workflow.findUniqueOrThrow({ where: { id } });
      await transaction.workflowVersion.create({
        data: { id: newId(), workflowId: id, version: workflow.latestVersion, definition: JSON.stringify(parsed) },
      });
      return { ...workflowFields(workflow), definition: parsed };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw staleVersion(id, options.expectedVersion, undefined);
    throw error;
  }
}

/** The versions, newest first, without their definitions; NotFoundError for an unknown id. */
export async function listVersions(id: string, database: StudioDatabase = getDatabase()): Promise<WorkflowVersionSummary[]> {
  const workflow = await database.workflow.findUnique({
    where: { id },
    select: { versions: { orderBy: { version: "desc" }, select: { id: true, version: true, createdAt: true } } },
  });
  if (!workflow) throw new NotFoundError("workflow", id);
  return workflow.versions;
}

/** One version with its definition; NotFoundError (kind "workflow version", id `<id>@<version>`) when missing. */
export async function getVersion(
  id: string,
  version: number,
  database: StudioDatabase = getDatabase(),
): Promise<WorkflowVersionDetail> {
  const row = Number.isSafeInteger(version)
    ? await database.workflowVersion.findUnique({ where: { workflowId_version: { workflowId: id, version } } })
    : null;
  if (!row) {
    const exists = await database.workflow.count({ where: { id } });
    if (exists === 0) throw new NotFoundError("workflow", id);
    throw new NotFoundError("workflow version", `${id}@${version}`);
  }
  return {
    id: row.id,
    workflowId: row.workflowId,
    version: row.version,
    createdAt: row.createdAt,
    definition: parseStoredDefinition(row.definition, id, row.version),
  };
}

/** Deletes the workflow with its versions, runs and grants; NotFoundError for an unknown id. */
export async function deleteWorkflow(id: string, database: StudioDatabase = getDatabase()): Promise<void> {
  const { count } = await database.workflow.deleteMany({ where: { id } });
  if (count === 0) throw new NotFoundError("workflow", id);
}

/** A new workflow (version 1) from the newest definition; its name defaults to "<name> (copy)". */
export async function duplicateWorkflow(
  id: string,
  name?: string,
  database: StudioDatabase = getDatabase(),
  copy: { ownerId?: string | null; adapt?: (definition: WorkflowDefinition) => WorkflowDefinition } = {},
): Promise<WorkflowDetail> {
  const source = await getWorkflow(id, database);
  const copyName = name?.trim() || `${source.name} (copy)`.slice(0, 200);
  const definition = withFreshHookIds({ ...source.definition, name: copyName });
  return createWorkflow(copy.adapt ? copy.adapt(definition) : definition, database, copy.ownerId ?? null);
}

/** Only the workflow's own columns of a row that may carry more (versions, runs). */
export function workflowFields(workflow: WorkflowFields): WorkflowFields {
  return {
    id: workflow.id,
    name: workflow.name,
    description: workflow.description,
    latestVersion: workflow.latestVersion,
    publishedVersion: workflow.publishedVersion,
    createdAt: workflow.createdAt,
    updatedAt: workflow.updatedAt,
  };
}

function parseStoredDefinition(json: string, id: string, version: number): WorkflowDefinition {
  const result = WorkflowDefinitionSchema.safeParse(JSON.parse(json));
  if (!result.success) {
    // A stored definition the schema no longer accepts is a bug (a schema change without a data migration), not bad input.
    const issue = result.error.issues[0];
    throw new Error(
      `Workflow ${id} version ${version} no longer matches WorkflowDefinitionSchema (${issue?.path.join(".") || "root"}: ${issue?.message}).`,
    );
  }
  return result.data;
}

function staleVersion(id: string, expected: number | undefined, current: number | undefined): ConflictError {
  return new ConflictError(
    "workflow",
    id,
    `The workflow was saved elsewhere meanwhile` +
      (expected !== undefined && current !== undefined ? ` (you edited version ${expected}, the newest is ${current})` : "") +
      `. Reload it to see the newest version, then apply your changes again.`,
  );
}
