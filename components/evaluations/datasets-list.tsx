"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { EmptyState, ErrorNotice, Spinner } from "@/components/ui/page-header";
import { useFormatTime } from "@/components/ui/use-format-time";
import { api } from "@/lib/client/api";
import type { DatasetDetail, DatasetSummary } from "@/lib/contracts/evaluation-dataset";

const SOURCE_WORDS: Record<DatasetSummary["source"], string> = { csv: "CSV file", jsonl: "JSON Lines file", runs: "past runs" };

/** A value as a cell shows it: text as it is, anything else as JSON. */
const shown = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** A dataset's rows, read when first shown: inputs and the output expected of each. */
function DatasetRows({ workflowId, datasetId }: { workflowId: string; datasetId: string }) {
  const [detail, setDetail] = useState<DatasetDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const asking = new AbortController();
    api<{ dataset: DatasetDetail }>(`/api/workflows/${encodeURIComponent(workflowId)}/datasets/${encodeURIComponent(datasetId)}`, { signal: asking.signal })
      .then(({ dataset }) => setDetail(dataset))
      .catch((failure: unknown) => {
        if (!asking.signal.aborted) setError(failure instanceof Error ? failure.message : String(failure));
      });
    return () => asking.abort();
  }, [workflowId, datasetId]);
  if (error) return <ErrorNotice title="The rows could not be read">{error}</ErrorNotice>;
  if (!detail) return <Spinner label="Reading the rows" />;
  const inputNames = [...new Set(detail.rows.flatMap((row) => Object.keys(row.inputs)))];
  return (
    <div className="max-h-96 overflow-auto rounded-lg border border-line">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Rows of {detail.name}</caption>
        <thead className="sticky top-0 bg-surface-sunken text-xs text-muted">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              #
            </th>
            {inputNames.map((name) => (
              <th key={name} scope="col" className="px-3 py-2 font-mono font-medium">
                {name}
              </th>
            ))}
            <th scope="col" className="px-3 py-2 font-medium">
              Expected
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {detail.rows.map((row) => (
            <tr key={row.position}>
              <td className="px-3 py-1.5 text-muted">{row.position}</td>
              {inputNames.map((name) => (
                <td key={name} className="max-w-64 truncate px-3 py-1.5" title={shown(row.inputs[name] ?? "")}>
                  {row.inputs[name] === undefined ? "" : shown(row.inputs[name])}
                </td>
              ))}
              <td className="max-w-80 truncate px-3 py-1.5" title={row.expected === undefined ? "" : shown(row.expected)}>
                {row.expected === undefined ? <span className="text-muted">nothing expected</span> : shown(row.expected)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The workflow's datasets, newest first: each with where it came from, its rows on demand, and Delete for who may edit. */
export function DatasetsList({ workflowId, datasets, canEdit, onDeleted }: { workflowId: string; datasets: DatasetSummary[]; canEdit: boolean; onDeleted: (id: string) => void }) {
  const formatTime = useFormatTime();
  const [open, setOpen] = useState<Set<string>>(new Set());
  const [deleting, setDeleting] = useState<DatasetSummary | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  if (datasets.length === 0) {
    return <EmptyState title="No datasets yet">A dataset is rows of inputs this workflow runs on, each with the output expected of it. Upload a file or pick past runs.</EmptyState>;
  }
  return (
    <section aria-labelledby="datasets-heading" className="space-y-3">
      <h2 id="datasets-heading" ref={heading} tabIndex={-1} className="text-base font-semibold outline-none">
        Datasets <span className="font-normal text-muted">({datasets.length})</span>
      </h2>
      <ul className="space-y-3">
        {datasets.map((dataset) => {
          const shownRows = open.has(dataset.id);
          return (
            <li key={dataset.id} className="space-y-3 rounded-xl border border-line bg-surface p-4 shadow-card" data-testid="dataset">
              <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
                <div className="min-w-0 flex-1">
                  <h3 className="truncate font-medium">{dataset.name}</h3>
                  <p className="text-xs text-muted">
                    {dataset.rowCount} row{dataset.rowCount === 1 ? "" : "s"}, {dataset.expectedCount} with an expected output · from {SOURCE_WORDS[dataset.source]} ·{" "}
                    {dataset.createdBy ? `${dataset.createdBy}, ` : ""}
                    {formatTime(dataset.createdAt, "date-time")}
                  </p>
                </div>
                <Button
                  size="sm"
                  aria-expanded={shownRows}
                  onClick={() =>
                    setOpen((current) => {
                      const next = new Set(current);
                      if (!next.delete(dataset.id)) next.add(dataset.id);
                      return next;
                    })
                  }
                >
                  {shownRows ? "Hide rows" : "Show rows"}
                </Button>
                {canEdit ? (
                  <Button size="sm" variant="ghost" onClick={() => setDeleting(dataset)}>
                    Delete<span className="sr-only"> {dataset.name}</span>
                  </Button>
                ) : null}
              </div>
              {shownRows ? <DatasetRows workflowId={workflowId} datasetId={dataset.id} /> : null}
            </li>
          );
        })}
      </ul>
      {deleting ? (
        <ConfirmDeleteDialog
          title={`Delete “${deleting.name}”?`}
          confirmLabel="Delete dataset"
          path={`/api/workflows/${encodeURIComponent(workflowId)}/datasets/${encodeURIComponent(deleting.id)}`}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            onDeleted(deleting.id);
            setDeleting(null);
          }}
          focusAfter={() => heading.current}
        >
          Its {deleting.rowCount} rows are removed for good. Runs made from it stay.
        </ConfirmDeleteDialog>
      ) : null}
    </section>
  );
}
