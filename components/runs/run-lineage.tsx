"use client";

import Link from "next/link";
import { StatusBadge } from "@/components/ui/status-badge";
import type { RunDetail } from "@/lib/contracts/run";
import { formatExact, formatRelative } from "@/lib/run-view/format-time";
import { RERUN_KIND_WORDS, runStartedFrom, shortRunId } from "@/lib/run-view/run-lineage";

interface RunLineageProps {
  run: Pick<RunDetail, "sourceRun" | "reruns">;
  now: number;
}

/**
 * Where a run came from (the run a retry or a run again repeats) and the runs
 * made from it. An error workflow's run says where it came from on its own
 * (run-view.tsx), so it is left out here.
 */
export function RunLineage({ run, now }: RunLineageProps) {
  const source = run.sourceRun && run.sourceRun.kind !== "error-workflow" ? run.sourceRun : null;
  if (!source && run.reruns.length === 0) return null;
  return (
    <div className="space-y-3">
      {source?.kind === "sub-workflow" ? (
        <p className="rounded-lg border border-line bg-surface px-3 py-2 text-sm shadow-card" data-testid="caller-run-link">
          Called by “{source.workflowName}” run {shortRunId(source.id)}
          {source.nodeLabel ? ` step “${source.nodeLabel}”` : ""}, which waits for this run and takes its output.{" "}
          <Link href={`/runs/${source.id}`} className="font-medium text-accent hover:underline">
            Open the calling run {shortRunId(source.id)}
          </Link>{" "}
          <span className="text-muted">({source.status})</span>
        </p>
      ) : source ? (
        <p className="rounded-lg border border-line bg-surface px-3 py-2 text-sm shadow-card" data-testid="rerun-source-link">
          This run is {runStartedFrom({ runId: source.id, kind: source.kind })}
          {source.kind === "retry-from-failure" ? ": the steps that succeeded there were kept, not run again" : ""}.{" "}
          <Link href={`/runs/${source.id}`} className="font-medium text-accent hover:underline">
            Open run {shortRunId(source.id)}
          </Link>{" "}
          <span className="text-muted">({source.status})</span>
        </p>
      ) : null}
      {run.reruns.length > 0 ? (
        <section aria-labelledby="reruns-heading" className="rounded-lg border border-line bg-surface px-3 py-2 text-sm shadow-card">
          <h2 id="reruns-heading" className="mb-1 text-sm font-semibold">
            Runs made from this one
          </h2>
          <ul className="space-y-1" data-testid="reruns-list">
            {run.reruns.map((rerun) => (
              <li key={rerun.id} className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <Link href={`/runs/${rerun.id}`} className="font-medium text-accent hover:underline">
                  Run {shortRunId(rerun.id)}
                </Link>
                <span>{RERUN_KIND_WORDS[rerun.kind]}</span>
                <span className="text-muted">version {rerun.version}</span>
                <time dateTime={rerun.createdAt} title={formatExact(rerun.createdAt)} className="text-muted" suppressHydrationWarning>
                  {formatRelative(rerun.createdAt, now)}
                </time>
                <StatusBadge status={rerun.status} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
