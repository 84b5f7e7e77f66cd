"use client";

import Link from "next/link";
import type { EvaluationSummary } from "@/lib/contracts/evaluation";
import type { DatasetSummary } from "@/lib/contracts/evaluation-dataset";
import { PageHeader } from "@/components/ui/page-header";
import { EvaluationStartForm } from "./evaluation-start-form";
import { EvaluationsList } from "./evaluations-list";
import { usePolled } from "./use-polled";

interface EvaluationsViewProps {
  workflow: { id: string; name: string };
  versions: number[];
  datasets: DatasetSummary[];
  initial: EvaluationSummary[];
  /** Who may run the workflow may start one. */
  canStart: boolean;
}

/** A workflow's evaluations (kept current while one runs) and, for who may run it, the form that starts one. */
export function EvaluationsView({ workflow, versions, datasets, initial, canStart }: EvaluationsViewProps) {
  const path = `/api/workflows/${encodeURIComponent(workflow.id)}/evaluations`;
  const [evaluations, setEvaluations] = usePolled(
    path,
    initial,
    (answer) => (answer as { evaluations: EvaluationSummary[] }).evaluations,
    (list) => list.some((each) => each.status === "running"),
  );
  const datasetsHref = `/workflows/${encodeURIComponent(workflow.id)}/datasets`;
  return (
    <div className="space-y-8">
      <PageHeader
        title="Evaluations"
        description={
          <>
            How well a version of {workflow.name} does on a dataset: each row a run, each run&apos;s output scored. Compare two to see what a change did.
          </>
        }
        actions={
          <Link href={datasetsHref} className="text-sm font-medium text-accent underline-offset-4 hover:underline">
            Datasets
          </Link>
        }
      />
      <EvaluationsList workflowId={workflow.id} evaluations={evaluations} />
      {canStart ? (
        datasets.length === 0 ? (
          <p className="rounded-lg border border-dashed border-line p-4 text-sm text-muted">
            An evaluation runs a dataset:{" "}
            <Link href={datasetsHref} className="font-medium text-accent hover:underline">
              make one on the Datasets page
            </Link>{" "}
            first.
          </p>
        ) : (
          <EvaluationStartForm workflowId={workflow.id} versions={versions} datasets={datasets} onStarted={(evaluation) => setEvaluations([evaluation, ...evaluations])} />
        )
      ) : null}
    </div>
  );
}
