import { nextCursorAfter, type ListResult } from "@/lib/contracts/list-page";
import {
  WorkflowChoicesQuerySchema,
  WorkflowListQuerySchema,
  type WorkflowChoice,
  type WorkflowChoicesQuery,
  type WorkflowListQuery,
} from "@/lib/contracts/workflow-list";
import { getDatabase, type StudioDatabase } from "./database";
import type { Prisma } from "./generated/sqlite/client";
import { countedPage, listOrder, pageWindow, workflowIdsNamed } from "./list-query";
import { workflowFields, type WorkflowFields } from "./workflow-store";

export interface WorkflowSummary extends WorkflowFields {
  /** The newest run's status (running, succeeded, ...), or null when it never ran. */
  lastRunStatus: string | null;
  lastRunAt: Date | null;
}

/**
 * A page of workflows (lib/contracts/workflow-list.ts) and how many match in
 * all, both within `visible` (the caller's visible workflows,
 * lib/server/access/workflow-access.ts; null = every workflow). Served by the
 * Workflow indexes on each order and the id.
 */
export async function listWorkflows(
  input: Partial<WorkflowListQuery> = {},
  visible: Prisma.WorkflowWhereInput | null = null,
  database: StudioDatabase = getDatabase(),
): Promise<ListResult<WorkflowSummary>> {
  const query = WorkflowListQuerySchema.parse(input);
  const where = await matching(query.search, visible, database);
  const { total, rows, hasMore } = await countedPage(database.workflow.count({ where }), database.workflow.findMany(pageWindow(where, query)), query.limit);
  const lastRuns = await lastRunsOf(rows.map((row) => row.id), database);
  return {
    items: rows.map((row) => ({ ...workflowFields(row), lastRunStatus: lastRuns.get(row.id)?.status ?? null, lastRunAt: lastRuns.get(row.id)?.createdAt ?? null })),
    page: { total, nextCursor: nextCursorAfter(rows, hasMore, query, (row) => (query.sort === "name" ? row.name : row[query.sort].getTime())) },
  };
}

/**
 * Workflows to pick from by name (the error workflow, a Sub-workflow step's),
 * at most `limit`, and how many match in all; within `visible`.
 */
export async function listWorkflowChoices(
  input: Partial<WorkflowChoicesQuery> = {},
  visible: Prisma.WorkflowWhereInput | null = null,
  database: StudioDatabase = getDatabase(),
): Promise<{ workflows: WorkflowChoice[]; total: number }> {
  const query = WorkflowChoicesQuerySchema.parse(input);
  const where = await matching(query.search, visible, database);
  const [total, workflows] = await Promise.all([
    database.workflow.count({ where }),
    database.workflow.findMany({
      where,
      orderBy: listOrder("name", "asc"),
      take: query.limit,
      select: { id: true, name: true, latestVersion: true, publishedVersion: true },
    }),
  ]);
  return { workflows, total };
}

async function matching(search: string | undefined, visible: Prisma.WorkflowWhereInput | null, database: StudioDatabase): Promise<Prisma.WorkflowWhereInput> {
  const named = search === undefined ? null : await workflowIdsNamed(search, database);
  return { AND: [visible ?? {}, named === null ? {} : { id: { in: named } }] };
}

/**
 * The newest run of each workflow: its time per workflow from the
 * [workflowId, createdAt, id] index, then those runs. (Prisma's nested
 * `take: 1` reads every run of the page's workflows and drops all but one.)
 */
async function lastRunsOf(workflowIds: string[], database: StudioDatabase): Promise<Map<string, { status: string; createdAt: Date }>> {
  if (workflowIds.length === 0) return new Map();
  const newest = await database.run.groupBy({ by: ["workflowId"], where: { workflowId: { in: workflowIds } }, _max: { createdAt: true } });
  if (newest.length === 0) return new Map();
  const runs = await database.run.findMany({
    where: { OR: newest.flatMap((group) => (group._max.createdAt ? [{ workflowId: group.workflowId, createdAt: group._max.createdAt }] : [])) },
    orderBy: { id: "asc" },
    select: { workflowId: true, status: true, createdAt: true },
  });
  // Runs made in the same millisecond: the one with the greatest id, as the runs list orders them.
  return new Map(runs.map((run) => [run.workflowId, { status: run.status, createdAt: run.createdAt }]));
}
