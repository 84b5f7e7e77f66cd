import { nextCursorAfter, type ListResult } from "@/lib/contracts/list-page";
import type { RunSummary } from "@/lib/contracts/run";
import type { UsageSummary } from "@/lib/contracts/usage";
import { listTimeRange, RunListQuerySchema, type RunListQuery } from "@/lib/contracts/run-list";
import { getDatabase, type StudioDatabase } from "./database";
import type { Prisma } from "./generated/sqlite/client";
import { countedPage, pageWindow, workflowIdsNamed } from "./list-query";
import { summariseRun } from "./run-summary";
import { pricedUsage, pricesFor, usageOfMatchingRuns, usageOfRuns } from "./run-usage-queries";

/**
 * A page of runs (lib/contracts/run-list.ts) and how many match in all, both
 * within `visible` (the caller's visible workflows,
 * lib/server/access/workflow-access.ts; null = every workflow): a person
 * never learns of rows, or counts of rows, of workflows not shared with them.
 * Served by the Run indexes on createdAt and id (within a status, workflow or
 * start), a page costs the same at any depth. `usage` sums the tokens (and
 * prices them) of every run that matches, not just the page's: in SQL, per
 * model, so it costs one grouped scan of the matching runs' usage rows.
 */
export async function listRuns(
  input: Partial<RunListQuery> = {},
  visible: Prisma.WorkflowWhereInput | null = null,
  database: StudioDatabase = getDatabase(),
): Promise<ListResult<RunSummary> & { usage: UsageSummary }> {
  const query = RunListQuerySchema.parse(input);
  const { from, to } = listTimeRange(query);
  const named = query.search === undefined ? null : await workflowIdsNamed(query.search, database);
  const where: Prisma.RunWhereInput = {
    ...(query.status ? { status: query.status } : {}),
    // A For each item's run is listed under its loop's step (the run page's item list), not among the runs: a loop
    // over a thousand items would bury everything else. Asking for them by what started them lists them.
    trigger: query.trigger ?? { not: "for-each" },
    ...(query.workflowId !== undefined || named !== null ? { workflowId: matchingWorkflows(query.workflowId, named) } : {}),
    ...(from || to ? { createdAt: { ...(from ? { gte: from } : {}), ...(to ? { lte: to } : {}) } } : {}),
    ...(visible ? { workflow: visible } : {}),
  };
  const { total, rows, hasMore } = await countedPage(
    database.run.count({ where }),
    database.run.findMany({
      ...pageWindow(where, query),
      include: {
        version: { select: { version: true } },
        workflow: { select: { name: true } },
        _count: { select: { approvals: true } },
      },
    }),
    query.limit,
  );
  const runIds = rows.map((row) => row.id);
  const [pending, usageByRun, totalUsage] = await Promise.all([
    // The pending part of each count: one relation cannot be counted twice in one query.
    database.approval.groupBy({ by: ["runId"], where: { runId: { in: runIds }, status: "pending" }, _count: { _all: true } }),
    usageOfRuns(runIds, database),
    usageOfMatchingRuns(where, database),
  ]);
  const prices = await pricesFor([totalUsage, ...usageByRun.values()], database);
  const pendingByRun = new Map(pending.map((group) => [group.runId, group._count._all]));
  return {
    items: rows.map((row) => summariseRun(row, { total: row._count.approvals, pending: pendingByRun.get(row.id) ?? 0 }, pricedUsage(usageByRun.get(row.id), prices))),
    page: { total, nextCursor: nextCursorAfter(rows, hasMore, query, (row) => row.createdAt.getTime()) },
    usage: pricedUsage(totalUsage, prices),
  };
}

/** The workflow id filter: the one asked for, among those whose names hold the search text. */
function matchingWorkflows(workflowId: string | undefined, named: string[] | null): Prisma.StringFilter | string {
  if (named === null) return workflowId!;
  if (workflowId === undefined) return { in: named };
  return { in: named.includes(workflowId) ? [workflowId] : [] };
}
