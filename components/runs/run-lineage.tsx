"use client";

import Link from "next/link";
import { MODE_CHOICES } from "@/components/editor/workflow-settings-panel";
import { StatusBadge } from "@/components/ui/status-badge";
import type { RunDetail } from "@/lib/contracts/run";
import { TimeAgo } from "./time-ago";
import { RERUN_KIND_WORDS, runStartedFrom, shortRunId } from "@/lib/run-view/run-lineage";

interface RunLineageProps {
  run: Pick<RunDetail, "sourceRun" | "reruns" | "permissions" | "definition" | "loop">;
  now: number;
}

function modeWords(mode: RunDetail["definition"]["mode"]): string {
  return MODE_CHOICES.find((choice) => choice.value === mode)?.label ?? mode;
}

/** A called run never runs freer than its caller: its page says what it runs under instead of what it was saved with. */
function CallerRestriction({ permissions, own }: { permissions: NonNullable<RunDetail["permissions"]>; own: RunDetail["definition"] }) {
  const narrowerMode = permissions.mode !== own.mode;
  return (
    <span className="mt-1 block" data-testid="caller-permissions">
      {narrowerMode
        ? `It runs under the caller's stricter mode, “${modeWords(permissions.mode)}”, not the “${modeWords(own.mode)}” it was saved with`
        : "It runs under its caller's stricter guardrails"}
      {narrowerMode ? ", and the stricter of both workflows' guardrails" : ""}: a called workflow never gets more freedom than the run that called it.
    </span>
  );
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
          {run.permissions ? <CallerRestriction permissions={run.permissions} own={run.definition} /> : null}
        </p>
      ) : source?.kind === "for-each" ? (
        <p className="rounded-lg border border-line bg-surface px-3 py-2 text-sm shadow-card" data-testid="loop-run-link">
          {run.loop ? `Item ${run.loop.index + 1} of ${run.loop.count}` : "An item"} of the For each step “{source.nodeLabel ?? source.nodeId}” in run {shortRunId(source.id)}: it runs the loop&apos;s
          body for that item.{" "}
          <Link href={`/runs/${source.id}`} className="font-medium text-accent hover:underline">
            Open the loop&apos;s run {shortRunId(source.id)}
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
                <TimeAgo value={rerun.createdAt} now={now} className="text-muted" />
                <StatusBadge status={rerun.status} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
