import type { SecretResolver, ToolPool } from "@/lib/tools";
import type { StudioDatabase } from "@/lib/persistence";
import {
  callingWorkflows,
  childRunAnnounced,
  childRunOutcome,
  findCalledVersion,
  findChildRun,
  unfinishedCallerOf,
  unfinishedChildRuns,
} from "@/lib/persistence/child-run-queries";
import { triggerFromColumns } from "@/lib/contracts/run-trigger";
import { childTraceparent } from "@/lib/observability/trace-context";
import { NotFoundError } from "@/lib/persistence/errors";
import { isUniqueViolation } from "@/lib/persistence/prisma-errors";
import { permissionsForLoopItem, permissionsUnderCaller } from "@/lib/workflow/caller-permissions";
import { ChildRunRefused, type ChildRunRequest, type ChildRunStarted, type ChildRuns, type LoopItemRequest } from "@/lib/workflow/child-runs";
import { findRunnableVersion } from "@/lib/persistence/run-queries";
import type { StoredChildRun } from "@/lib/persistence/child-run-queries";
import { HttpError } from "./http";
import type { RunDriver } from "./run-driver";
import { checkRunStart } from "./run-start-checks";

/**
 * How deep calls may nest (a run, the run it called, the run that one
 * called, …): validation refuses loops between saved workflows; this bounds
 * what validation cannot see (a version pinned before a loop was made).
 */
export const MAX_CALL_DEPTH = 10;

export interface ChildRunsContext {
  database: StudioDatabase;
  /** This process's way of starting and cancelling runs (its engine, or the job queue). */
  runs: () => RunDriver;
  pool: () => ToolPool;
  secrets: SecretResolver;
  /**
   * Sees that `runId` is driven (with workers: sends its job); absent when
   * every run is driven by this process's engine, which wakes a waiting step itself.
   */
  driveRun?: (runId: string) => Promise<void>;
}

/**
 * The studio's ChildRuns: a Sub-workflow step's run is a real run of the
 * called workflow's version, started like any other (its inputs and the
 * workflow checked as for Run), started by `sub-workflow` and linked to the
 * calling run, step and attempt, at most one per attempt.
 */
export function studioChildRuns(context: ChildRunsContext): ChildRuns {
  const { database } = context;
  return {
    start: (request) => startChildRun(context, request),
    startItem: (request) => startLoopItem(context, request),
    outcome: (runId) => childRunOutcome(runId, database),
    cancel: async (runId, by) => {
      await context.runs().cancel(runId, by);
    },
    cancelChildren: async (parentRunId, by) => {
      const children = await unfinishedChildRuns(parentRunId, database);
      await Promise.all(children.map((runId) => context.runs().cancel(runId, by)));
    },
    finished: async (runId) => {
      if (!context.driveRun) return;
      const caller = await unfinishedCallerOf(runId, database);
      if (caller) await context.driveRun(caller);
    },
  };
}

async function startChildRun(context: ChildRunsContext, request: ChildRunRequest): Promise<ChildRunStarted> {
  const { database } = context;
  const { parent } = request;
  // A replay of the same attempt (a restart, another worker) finds the run it started.
  const existing = await findChildRun(parent.runId, parent.nodeId, parent.attempt, database);
  if (existing) return foundChildRun(existing, parent.runId, database);

  const chain = await callingWorkflows(parent.runId, MAX_CALL_DEPTH, database);
  if (chain.includes(request.workflowId)) {
    throw new ChildRunRefused("Calling this workflow here would loop: a run of it is already waiting further up this chain of calls. Choose another workflow.");
  }
  if (chain.length >= MAX_CALL_DEPTH) throw new ChildRunRefused(`Workflows may call each other at most ${MAX_CALL_DEPTH} deep; this call would go deeper.`);

  let version;
  try {
    version = await findCalledVersion(request.workflowId, request.version, database);
  } catch (error) {
    if (NotFoundError.isInstance(error)) throw new ChildRunRefused(error.kind === "workflow" ? `The workflow this step calls no longer exists (id ${request.workflowId}).` : `The workflow this step calls has no version ${String(request.version)}.`, "not-found");
    throw error;
  }
  let inputs: Record<string, unknown>;
  try {
    inputs = await checkRunStart(version, request.inputs, { pool: context.pool(), secrets: context.secrets, database });
  } catch (error) {
    if (error instanceof HttpError && error.status === 422) throw new ChildRunRefused(`“${version.workflowName}” cannot start: ${error.message}`);
    throw error;
  }
  const [caller, parentRun] = await Promise.all([
    database.workflow.findUnique({ where: { id: parent.workflowId }, select: { name: true } }),
    database.run.findUnique({ where: { id: parent.runId }, select: { triggerDetail: true } }),
  ]);
  try {
    const run = await context.runs().start(version, inputs, {
      trigger: { kind: "sub-workflow", nodeId: null, ...childTrace(parent, parentRun?.triggerDetail ?? null) },
      source: { id: parent.runId, workflowId: parent.workflowId, workflowName: caller?.name ?? parent.workflowId, status: "running", kind: "sub-workflow", nodeId: parent.nodeId },
      calledBy: { nodeId: parent.nodeId, attempt: parent.attempt },
      // Never freer than its caller: the stricter of both modes and guardrails, stored with the run.
      permissions: permissionsUnderCaller(parent.permissions, version.definition),
    });
    return { runId: run.id, workflowId: version.workflowId, workflowName: version.workflowName, version: version.version, announced: false };
  } catch (error) {
    // Another drive of the same attempt started it a moment earlier: that run is this attempt's.
    if (!isUniqueViolation(error)) throw error;
    const raced = await findChildRun(parent.runId, parent.nodeId, parent.attempt, database);
    if (!raced) throw error;
    return foundChildRun(raced, parent.runId, database);
  }
}

/**
 * A For each item's run: a run of the loop's own run's version (its loop body
 * alone, lib/workflow/run-definition.ts), with that run's inputs and the item,
 * started by `for-each` and linked to the step, its attempt and the item's
 * index (unique: a replay finds it). Under the loop's run's permissions, which
 * are its own workflow's: never freer.
 */
async function startLoopItem(context: ChildRunsContext, request: LoopItemRequest): Promise<ChildRunStarted> {
  const { database } = context;
  const { parent } = request;
  const existing = await findChildRun(parent.runId, parent.nodeId, parent.attempt, database, request.index);
  if (existing) return foundChildRun(existing, parent.runId, database);
  const chain = await callingWorkflows(parent.runId, MAX_CALL_DEPTH, database);
  if (chain.length >= MAX_CALL_DEPTH) throw new ChildRunRefused(`Loops and calls may nest at most ${MAX_CALL_DEPTH} deep; this item would go deeper.`);
  const loopRun = await database.run.findUnique({
    where: { id: parent.runId },
    select: { inputs: true, triggerDetail: true, workflow: { select: { name: true } }, version: { select: { version: true } } },
  });
  if (!loopRun) throw new ChildRunRefused(`The run holding this loop (${parent.runId}) no longer exists.`, "not-found");
  const version = await findRunnableVersion(parent.workflowId, loopRun.version.version, database);
  const loop = { nodeId: parent.nodeId, index: request.index, count: request.count, item: request.item, nodes: request.nodes };
  try {
    const run = await context.runs().start(version, JSON.parse(loopRun.inputs) as Record<string, unknown>, {
      trigger: { kind: "for-each", nodeId: null, ...childTrace(parent, loopRun.triggerDetail) },
      source: { id: parent.runId, workflowId: parent.workflowId, workflowName: loopRun.workflow.name, status: "running", kind: "for-each", nodeId: parent.nodeId },
      calledBy: { nodeId: parent.nodeId, attempt: parent.attempt },
      loop,
      permissions: permissionsForLoopItem(parent.permissions, version.definition),
    });
    return { runId: run.id, workflowId: version.workflowId, workflowName: version.workflowName, version: version.version, announced: false };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const raced = await findChildRun(parent.runId, parent.nodeId, parent.attempt, database, request.index);
    if (!raced) throw error;
    return foundChildRun(raced, parent.runId, database);
  }
}

/** A child run's trace: the parent run's, under the span of the parent step's attempt that started it (lib/observability/trace-context.ts). */
function childTrace(parent: ChildRunRequest["parent"], parentTriggerDetail: string | null): { traceparent: string } {
  const parentTrigger = triggerFromColumns("person", null, parentTriggerDetail);
  return { traceparent: childTraceparent(parent.runId, parentTrigger, parent.nodeId, parent.attempt) };
}

/** A child run this attempt had already started (a replay, or another drive a moment earlier), and whether it was announced. */
async function foundChildRun(child: StoredChildRun, parentRunId: string, database: StudioDatabase): Promise<ChildRunStarted> {
  const announced = await childRunAnnounced(parentRunId, child.id, database);
  return { runId: child.id, workflowId: child.workflowId, workflowName: child.workflowName, version: child.version, announced };
}
