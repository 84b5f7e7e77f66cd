import type { RunSummary } from "@/lib/contracts/run";
import type { UsageSummary } from "@/lib/contracts/usage";
import { toRunRecord } from "./run-records";

type SummaryRow = Parameters<typeof toRunRecord>[0] & { workflow: { name: string } };

/** A stored run as lists and its page show it: its record, its workflow's name, how long it took, its approvals, its tokens and cost. */
export function summariseRun(row: SummaryRow, approvals: { total: number; pending: number }, usage: UsageSummary): RunSummary {
  const record = toRunRecord(row);
  return {
    ...record,
    workflowName: row.workflow.name,
    durationMs: record.finishedAt ? Date.parse(record.finishedAt) - Date.parse(record.startedAt) : null,
    totalApprovals: approvals.total,
    pendingApprovals: approvals.pending,
    startedBy: starterOf(row),
    usage,
  };
}

/** Who started a run, from its stored columns: a person and the name they had then, or nobody (a trigger, a schedule). */
export function starterOf(row: { startedById: string | null; startedByLabel: string | null }): RunSummary["startedBy"] {
  return row.startedById !== null ? { personId: row.startedById, name: row.startedByLabel ?? "someone" } : null;
}
