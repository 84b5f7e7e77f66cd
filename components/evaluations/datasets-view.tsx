"use client";

import Link from "next/link";
import { useState } from "react";
import { PageHeader } from "@/components/ui/page-header";
import type { DatasetSummary } from "@/lib/contracts/evaluation-dataset";
import type { RunSummary } from "@/lib/contracts/run";
import { DatasetFromRuns } from "./dataset-from-runs";
import { DatasetUploadForm } from "./dataset-upload-form";
import { DatasetsList } from "./datasets-list";

interface DatasetsViewProps {
  workflow: { id: string; name: string; inputNames: string[] };
  initial: DatasetSummary[];
  /** The workflow's newest runs, to make a dataset of; empty for who may not read them. */
  runs: RunSummary[];
  canEdit: boolean;
}

/** A workflow's evaluation datasets: the list, and, for who may edit the workflow, the two ways to make one. */
export function DatasetsView({ workflow, initial, runs, canEdit }: DatasetsViewProps) {
  const [datasets, setDatasets] = useState(initial);
  const made = (dataset: DatasetSummary) => setDatasets((current) => [dataset, ...current]);
  return (
    <div className="space-y-8">
      <PageHeader
        title="Datasets"
        description={
          <>
            Rows of inputs{" "}
            <Link href={`/workflows/${encodeURIComponent(workflow.id)}`} className="font-medium text-accent hover:underline">
              {workflow.name}
            </Link>{" "}
            runs on, each with the output expected of it, to see how well a version does.
          </>
        }
        actions={
          <Link href={`/workflows/${encodeURIComponent(workflow.id)}/evaluations`} className="text-sm font-medium text-accent underline-offset-4 hover:underline">
            Evaluations
          </Link>
        }
      />
      <DatasetsList workflowId={workflow.id} datasets={datasets} canEdit={canEdit} onDeleted={(id) => setDatasets((current) => current.filter((each) => each.id !== id))} />
      {canEdit ? (
        <div className="space-y-6">
          <DatasetUploadForm workflowId={workflow.id} inputNames={workflow.inputNames} onMade={made} />
          <DatasetFromRuns workflowId={workflow.id} runs={runs} onMade={made} />
        </div>
      ) : null}
    </div>
  );
}
