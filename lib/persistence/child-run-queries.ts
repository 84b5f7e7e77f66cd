import { StepErrorKindSchema } from "@/lib/contracts/execution-settings";
import { CHILD_RUN_KINDS } from "@/lib/contracts/run";
import type { ChildRunOutcome, CalledVersion } from "@/lib/workflow/child-runs";
import { getDatabase, type StudioDatabase } from "./database";
import { NotFoundError } from "./errors";
import { findRunnableVersion, type RunnableVersion } from "./run-queries";

/*
 * The runs Sub-workflow steps call (a Run whose sourceKind is `sub-workflow`,
 * sourceRunId the calling run, sourceNodeId and sourceAttempt its step's
 * attempt): finding them, how they ended, and who called whom.
 */

/** A child run as its calling step knows it. */
export interface StoredChildRun {
  id: string;
  workflowId: string;
  workflowName: string;
  version: number;
}

/** The run the step `nodeId` of `parentRunId` started on its attempt `attempt` (for a For each step: for its item `item`), if it started one. */
export async function findChildRun(parentRunId: string, nodeId: string, attempt: number, database: StudioDatabase = getDatabase(), item = 0): Promise<StoredChildRun | null> {
  const row = await database.run.findUnique({
    where: { sourceRunId_sourceNodeId_sourceAttempt_sourceItem: { sourceRunId: parentRunId, sourceNodeId: nodeId, sourceAttempt: attempt, sourceItem: item } },
    select: { id: true, workflowId: true, workflow: { select: { name: true } }, version: { select: { version: true } } },
  });
  return row ? { id: row.id, workflowId: row.workflowId, workflowName: row.workflow.name, version: row.version.version } : null;
}

/**
 * Whether `parentRunId`'s events already say that it started `childRunId`.
 * A process stopped between creating a child run and storing that event
 * leaves a child nobody announced; the replay says it then. Run ids are
 * unique and appear in the payload as `"runId":"<id>"`.
 */
export async function childRunAnnounced(parentRunId: string, childRunId: string, database: StudioDatabase = getDatabase()): Promise<boolean> {
  const event = await database.runEvent.findFirst({
    where: { runId: parentRunId, type: "child-run-started", payload: { contains: JSON.stringify(childRunId) } },
    select: { id: true },
  });
  return event !== null;
}

/** How a run ended (its output, or its error and error kind); null while unfinished. A run deleted meanwhile (with its workflow) ended as not found. */
export async function childRunOutcome(runId: string, database: StudioDatabase = getDatabase()): Promise<ChildRunOutcome | null> {
  const row = await database.run.findUnique({ where: { id: runId }, select: { status: true, output: true, error: true, errorKind: true } });
  if (!row) return { status: "failed", error: `The run it called (${runId}) no longer exists: its workflow was deleted.`, errorKind: "not-found" };
  if (row.status === "succeeded") return { status: "succeeded", output: row.output === null ? null : (JSON.parse(row.output) as unknown) };
  if (row.status !== "failed" && row.status !== "cancelled") return null;
  const kind = StepErrorKindSchema.safeParse(row.errorKind);
  return {
    status: row.status,
    error: row.error ?? (row.status === "cancelled" ? "Cancelled." : "The run failed."),
    errorKind: kind.success ? kind.data : row.status === "cancelled" ? "cancelled" : "failed",
  };
}

/** The unfinished runs the steps of `parentRunId` called. */
export async function unfinishedChildRuns(parentRunId: string, database: StudioDatabase = getDatabase()): Promise<string[]> {
  const rows = await database.run.findMany({
    where: { sourceRunId: parentRunId, sourceKind: { in: [...CHILD_RUN_KINDS] }, status: { in: ["running", "awaiting_input"] } },
    select: { id: true },
  });
  return rows.map((row) => row.id);
}

function isChildRunKind(kind: string | null): boolean {
  return (CHILD_RUN_KINDS as readonly (string | null)[]).includes(kind);
}

/** The unfinished run whose step called `runId`, if a Sub-workflow or For each step did. */
export async function unfinishedCallerOf(runId: string, database: StudioDatabase = getDatabase()): Promise<string | null> {
  const row = await database.run.findUnique({ where: { id: runId }, select: { sourceRunId: true, sourceKind: true } });
  if (!row || !isChildRunKind(row.sourceKind) || !row.sourceRunId) return null;
  const caller = await database.run.findUnique({ where: { id: row.sourceRunId }, select: { id: true, status: true } });
  return caller && (caller.status === "running" || caller.status === "awaiting_input") ? caller.id : null;
}

/**
 * The workflows of `runId` and of the runs that called it, nearest first, up
 * to `limit` of them: a call to any of them would loop.
 */
export async function callingWorkflows(runId: string, limit: number, database: StudioDatabase = getDatabase()): Promise<string[]> {
  const workflows: string[] = [];
  let next: string | null = runId;
  while (next && workflows.length < limit) {
    const row: { workflowId: string; sourceRunId: string | null; sourceKind: string | null } | null = await database.run.findUnique({
      where: { id: next },
      select: { workflowId: true, sourceRunId: true, sourceKind: true },
    });
    if (!row) break;
    workflows.push(row.workflowId);
    next = isChildRunKind(row.sourceKind) ? row.sourceRunId : null;
  }
  return workflows;
}

/**
 * The version a Sub-workflow step calls: the pinned one, or the published
 * one, else (never published) the newest, as an error workflow's run does
 * (`unpublished` says so). NotFoundError for an unknown workflow or version.
 */
export async function findCalledVersion(
  workflowId: string,
  version: CalledVersion,
  database: StudioDatabase = getDatabase(),
): Promise<RunnableVersion & { unpublished: boolean }> {
  if (version !== "published") return { ...(await findRunnableVersion(workflowId, version, database)), unpublished: false };
  const workflow = await database.workflow.findUnique({ where: { id: workflowId }, select: { publishedVersion: true } });
  if (!workflow) throw new NotFoundError("workflow", workflowId);
  const found = await findRunnableVersion(workflowId, workflow.publishedVersion ?? undefined, database);
  return { ...found, unpublished: workflow.publishedVersion === null };
}
