import { FINISHED_RUN_STATUSES } from "@/lib/contracts/run-status";
import type { MetricsSources } from "@/lib/observability/studio-metrics";
import type { StudioDatabase } from "./database";

/**
 * What the metrics read from the database when they are scraped: two small
 * aggregate queries on indexed columns, never a scan of the runs' events.
 */
export function metricsSources(database: StudioDatabase, runJobs?: MetricsSources["runJobs"]): MetricsSources {
  return {
    ...(runJobs ? { runJobs } : {}),
    approvalsWaiting: async () => {
      const waiting = await database.approval.aggregate({ where: { status: "pending" }, _count: { _all: true }, _min: { createdAt: true } });
      return { count: waiting._count._all, oldestAskedAt: waiting._min.createdAt };
    },
    runsUnfinished: async () => {
      const groups = await database.run.groupBy({ by: ["status"], where: { status: { notIn: [...FINISHED_RUN_STATUSES] } }, _count: { _all: true } });
      return Object.fromEntries(groups.map((group) => [group.status, group._count._all]));
    },
  };
}
