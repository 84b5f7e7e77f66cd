"use client";

import { DataTable } from "@/components/ui/data-table";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ErrorNotice, PageHeader } from "@/components/ui/page-header";
import { StatusBadge } from "@/components/ui/status-badge";
import { api } from "@/lib/client/api";
import type { EvaluationDetail } from "@/lib/contracts/evaluation";
import { formatCost, formatTokenCount } from "@/lib/cost/format-cost";
import { formatDuration } from "@/lib/run-view/format-time";
import { EVALUATION_STATUS_WORDS, EvaluationProgress } from "./evaluation-progress";
import { ShownValue } from "./shown-value";
import { percent, VerdictBadge } from "./verdict-badge";
import { usePolled } from "./use-polled";

/**
 * One evaluation: each scorer's average, the totals, and every row with its
 * output, expected output, verdicts and run (kept current while it runs).
 * Who may cancel runs may cancel it while it runs.
 */
export function EvaluationView({ initial, canCancel }: { initial: EvaluationDetail; canCancel: boolean }) {
  const path = `/api/workflows/${encodeURIComponent(initial.workflowId)}/evaluations/${encodeURIComponent(initial.id)}`;
  const [evaluation, setEvaluation] = usePolled(path, initial, (answer) => (answer as { evaluation: EvaluationDetail }).evaluation, (value) => value.status === "running");
  const [cancelError, setCancelError] = useState<string | null>(null);
  const { totals } = evaluation;

  async function cancel() {
    setCancelError(null);
    try {
      setEvaluation((await api<{ evaluation: EvaluationDetail }>(`${path}/cancel`, { method: "POST" })).evaluation);
    } catch (error) {
      setCancelError(error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <div className="space-y-6">
      <PageHeader
        title={`Version ${evaluation.version} on ${evaluation.datasetName}`}
        description={`${EVALUATION_STATUS_WORDS[evaluation.status]}${evaluation.draft ? " · the draft when it started" : ""} · ${evaluation.concurrency} ${evaluation.concurrency === 1 ? "row" : "rows"} at once${evaluation.createdBy ? ` · started by ${evaluation.createdBy}` : ""}`}
        actions={
          evaluation.status === "running" && canCancel ? (
            <Button variant="danger" onClick={() => void cancel()}>
              Cancel the evaluation
            </Button>
          ) : null
        }
      />
      {cancelError ? <ErrorNotice title="Not cancelled">{cancelError}</ErrorNotice> : null}
      <EvaluationProgress evaluation={evaluation} />
      <section aria-label="Averages" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {evaluation.averages.map((average) => (
          <div key={average.name} className="rounded-lg border border-line bg-surface p-4 shadow-card" data-testid="scorer-average">
            <p className="text-xs font-medium text-muted">{average.name}</p>
            <p className="text-2xl font-semibold tabular-nums">{percent(average.average)}</p>
            <p className="text-xs text-muted">
              {average.passed} passed · {average.failed} failed{average.unscored > 0 ? ` · ${average.unscored} not scored` : ""}
            </p>
          </div>
        ))}
      </section>
      <p className="text-sm text-muted" data-testid="evaluation-totals">
        Runs took {formatDuration(totals.durationMs)} in all · {formatTokenCount(totals.inputTokens)} tokens in, {formatTokenCount(totals.outputTokens)} out
        {totals.costMicros !== null ? ` · ${formatCost(totals.costMicros)}` : ""} · {totals.failedSteps} failed {totals.failedSteps === 1 ? "step" : "steps"}
      </p>
      <DataTable caption="Each row of the dataset: its inputs, the output expected, what the run gave and the verdicts" columns={["Row", "Inputs", "Expected", "Output", "Verdicts", "Run"]}>
        {evaluation.results.map((result) => (
          <tr key={result.position} className="align-top" data-testid="result-row">
            <th scope="row" className="px-3 py-2 font-medium tabular-nums">
              {result.position}
            </th>
            <td className="px-3 py-2">
              <ShownValue value={result.inputs} />
            </td>
            <td className="px-3 py-2">
              <ShownValue value={result.expected} empty="none" />
            </td>
            <td className="px-3 py-2">
              {result.error && result.status === "error" ? <span className="text-xs text-caution">{result.error}</span> : <ShownValue value={result.output} empty={result.status === "scored" ? "nothing" : "…"} />}
            </td>
            <td className="space-y-1 px-3 py-2">
              {result.status === "scored"
                ? evaluation.scorers.map((scorer, index) => <VerdictBadge key={scorer.name} name={scorer.name} verdict={result.verdicts[index] ?? null} />)
                : <span className="text-xs text-muted">{result.status === "pending" ? "waiting for a slot" : result.status === "running" ? "running" : result.status === "cancelled" ? "cancelled" : "not run"}</span>}
            </td>
            <td className="space-y-1 px-3 py-2 whitespace-nowrap">
              {result.runStatus ? <StatusBadge status={result.runStatus} /> : null}
              {result.runId ? (
                <Link href={`/runs/${encodeURIComponent(result.runId)}`} className="block text-xs font-medium text-accent hover:underline" aria-label={`Open the run of row ${result.position}`}>
                  Open the run
                </Link>
              ) : null}
              {result.durationMs !== null ? <p className="text-xs text-muted">{formatDuration(result.durationMs)}</p> : null}
            </td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}
