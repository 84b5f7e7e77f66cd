"use client";

import { DataTable } from "@/components/ui/data-table";
import { TableSection } from "@/components/ui/table-section";
import Link from "next/link";
import { useState } from "react";
import { EmptyState } from "@/components/ui/page-header";
import { useFormatTime } from "@/components/ui/use-format-time";
import type { EvaluationSummary } from "@/lib/contracts/evaluation";
import { EVALUATION_STATUS_WORDS, EvaluationProgress } from "./evaluation-progress";
import { percent } from "./verdict-badge";

/**
 * A workflow's evaluations, newest first: version, dataset, progress and each scorer's average. Two of them on one
 * dataset are picked to compare side by side.
 */
export function EvaluationsList({ workflowId, evaluations }: { workflowId: string; evaluations: EvaluationSummary[] }) {
  const [picked, setPicked] = useState<string[]>([]);
  const formatTime = useFormatTime();
  if (evaluations.length === 0) {
    return <EmptyState title="No evaluations yet">Start one below: pick a version, a dataset and how to score each row.</EmptyState>;
  }
  const base = `/workflows/${encodeURIComponent(workflowId)}/evaluations`;
  const pickedOnes = picked.map((id) => evaluations.find((each) => each.id === id)).filter((each): each is EvaluationSummary => each !== undefined);
  const sameDataset = pickedOnes.length === 2 && pickedOnes[0]!.datasetId === pickedOnes[1]!.datasetId;
  const toggle = (id: string) => setPicked((current) => (current.includes(id) ? current.filter((each) => each !== id) : [...current.slice(-1), id]));
  return (
    <TableSection
      titleId="evaluations-title"
      title="Evaluations"
      controls={
        <div className="flex items-center gap-3 text-sm">
          <span className="text-muted">{pickedOnes.length === 2 && !sameDataset ? "Pick two of one dataset to compare." : "Pick two to compare."}</span>
          {sameDataset ? (
            <Link
              href={`${base}/compare?a=${encodeURIComponent(pickedOnes[0]!.id)}&b=${encodeURIComponent(pickedOnes[1]!.id)}`}
              className="inline-flex h-9 items-center rounded-md bg-accent px-3.5 font-medium text-accent-foreground shadow-card hover:opacity-90"
            >
              Compare the two
            </Link>
          ) : null}
        </div>
      }
    >
      <DataTable columns={[<span key="compare" className="sr-only">Compare</span>, "Started", "Version", "Dataset", "Progress", "Averages"]}>
        {evaluations.map((evaluation) => {
          const label = `version ${evaluation.version} on ${evaluation.datasetName}, started ${formatTime(evaluation.createdAt, "date-time")}`;
          return (
            <tr key={evaluation.id} className="align-top" data-testid="evaluation-row">
              <td className="px-3 py-2">
                <input type="checkbox" className="size-4 accent-[var(--color-accent)]" checked={picked.includes(evaluation.id)} onChange={() => toggle(evaluation.id)} aria-label={`Compare ${label}`} />
              </td>
              <td className="px-3 py-2 whitespace-nowrap">
                <Link href={`${base}/${encodeURIComponent(evaluation.id)}`} className="font-medium text-accent hover:underline" aria-label={`Open the evaluation of ${label}`}>
                  {formatTime(evaluation.createdAt, "date-time")}
                </Link>
                <p className="text-xs text-muted">
                  {EVALUATION_STATUS_WORDS[evaluation.status]}
                  {evaluation.createdBy ? ` · ${evaluation.createdBy}` : ""}
                </p>
              </td>
              <td className="px-3 py-2 whitespace-nowrap">
                Version {evaluation.version}
                {evaluation.draft ? <span className="ml-1 text-xs text-muted">(draft)</span> : null}
              </td>
              <td className="px-3 py-2">{evaluation.datasetName}</td>
              <td className="px-3 py-2">
                <EvaluationProgress evaluation={evaluation} />
              </td>
              <td className="px-3 py-2">
                <ul className="space-y-0.5 text-xs">
                  {evaluation.averages.map((average) => (
                    <li key={average.name}>
                      <span className="text-muted">{average.name}:</span> <span className="font-medium tabular-nums">{percent(average.average)}</span>
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          );
        })}
      </DataTable>
    </TableSection>
  );
}
