import { WorkflowDefinitionSchema } from "@/lib/workflow/definition";
import type { ApprovalDetail } from "@/lib/contracts/approval";
import { CHILD_RUN_KINDS, MAX_LISTED_RERUNS, RERUN_KINDS, type RerunLink, type RunDetail, type RunLink, type RunSummary } from "@/lib/contracts/run";
import { runDefinitionOf } from "@/lib/workflow/run-definition";
import type { RunStatus } from "@/lib/workflow/run-types";

export type { ApprovalDetail, RunDetail, RunSummary };
import { BUSY_TRANSACTION, getDatabase, type StudioDatabase } from "./database";
import { NotFoundError } from "./errors";
import { runSourceFromColumns, storedLoop, storedPermissions, toApprovalRecord, toStepRecord } from "./run-records";
import { CANCELS_CHANNEL } from "./run-store";
import { summariseRun } from "./run-summary";
import { pricedUsage, runModelPrices } from "./run-usage-queries";
import type { Prisma } from "./generated/sqlite/client";

/**
 * Reads and creates runs for the API. The engine writes everything else
 * through PrismaRunStore. Each function takes the database last. Split by
 * what they query (run-versions, run-creation, run-event-queries,
 * approval-queries); callers import them all from here.
 */
export { getApprovalDetail, listApprovals } from "./approval-queries";
export { createRun, IdempotencyKeyTaken, insertRun, type RunStart, type RunStarter } from "./run-creation";
export { eventTextJson, eventTextOf, readEvents, readEventTexts, runExists, runOutcome, runStatus, type EventText } from "./run-event-queries";
export { listRuns } from "./run-list";
export { definitionOfRun, findErrorWorkflowVersion, findRunnableVersion, parsedDefinition, rememberedDefinition, type RunnableVersion } from "./run-versions";

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

export async function getRunDetail(runId: string, database: StudioDatabase = getDatabase()): Promise<RunDetail> {
  const row = await database.run.findUnique({
    where: { id: runId },
    include: {
      version: true,
      workflow: { select: { name: true, latestVersion: true } },
      steps: true,
      approvals: { orderBy: { createdAt: "asc" } },
      modelUsage: { select: { provider: true, model: true, inputTokens: true, cachedInputTokens: true, outputTokens: true, calls: true } },
    },
  });
  if (!row) throw new NotFoundError("run", runId);
  const loop = storedLoop(row.loop);
  // An item's run shows its loop's body, under the version's own permissions (`permissions` says what it runs under).
  const definition = runDefinitionOf(WorkflowDefinitionSchema.parse(JSON.parse(row.version.definition)), { loop });
  const order = new Map(definition.nodes.map((node, index) => [node.id, index]));
  const source = runSourceFromColumns(row.sourceRunId, row.sourceKind);
  const [errorWorkflowRun, sourceRun, reruns, childRuns, modelPrices] = await Promise.all([
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
    runModelPrices(definition, row.modelUsage, database),
  ]);
  return {
    ...summariseRun(row, { total: row.approvals.length, pending: row.approvals.filter((approval) => approval.status === "pending").length }, pricedUsage(row.modelUsage, modelPrices)),
    modelPrices,
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
