"use client";

import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { CardForm } from "@/components/ui/card-form";
import { CONTROL_CLASS, Field, FieldError, fieldAria } from "@/components/ui/field";
import { StatusBadge } from "@/components/ui/status-badge";
import { useFormatTime } from "@/components/ui/use-format-time";
import { api, ApiError, type ApiIssue } from "@/lib/client/api";
import { DatasetFromRunsSchema, type DatasetSummary } from "@/lib/contracts/evaluation-dataset";
import type { RunSummary } from "@/lib/contracts/run";
import { RowProblems } from "./row-problems";

/** The inputs of a run in one line: `who: Ada · times: 2`. */
function inputsInOneLine(inputs: Record<string, unknown>): string {
  const parts = Object.entries(inputs).map(([name, value]) => `${name}: ${typeof value === "string" ? value : JSON.stringify(value)}`);
  return parts.length === 0 ? "no inputs" : parts.join(" · ");
}

/**
 * Makes a dataset of past runs picked from the workflow's newest: their inputs become the rows, and a succeeded
 * run's output the output expected of it (a run that failed gives a row with nothing expected).
 */
export function DatasetFromRuns({ workflowId, runs, onMade }: { workflowId: string; runs: RunSummary[]; onMade: (dataset: DatasetSummary) => void }) {
  const id = useId();
  const formatTime = useFormatTime();
  const [name, setName] = useState("");
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [errors, setErrors] = useState<{ name?: string; runIds?: string }>({});
  const [problems, setProblems] = useState<ApiIssue[] | null>(null);
  const [sending, setSending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblems(null);
    // In the order they are listed (newest first), as the dataset's rows will be.
    const body = { name, runIds: runs.filter((run) => picked.has(run.id)).map((run) => run.id) };
    const parsed = DatasetFromRunsSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])));
      return;
    }
    setErrors({});
    setSending(true);
    try {
      const { dataset } = await api<{ dataset: DatasetSummary }>(`/api/workflows/${encodeURIComponent(workflowId)}/datasets/from-runs`, { body: parsed.data });
      setName("");
      setPicked(new Set());
      onMade(dataset);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const rows = error.issues.filter((issue) => issue.path.startsWith("runIds["));
      if (rows.length > 0) setProblems(rows);
      else setErrors(error.status === 409 ? { name: error.message } : { runIds: error.message });
    } finally {
      setSending(false);
    }
  }

  if (runs.length === 0) return null;
  const toggle = (runId: string) =>
    setPicked((current) => {
      const next = new Set(current);
      if (!next.delete(runId)) next.add(runId);
      return next;
    });
  return (
    <CardForm titleId={`${id}-title`} title="From past runs" intro="Pick runs: their inputs become rows, and what a succeeded run gave becomes the output expected of it." onSubmit={submit}>
      <fieldset aria-describedby={errors.runIds ? `${id}-runs-error` : undefined}>
        <legend className="sr-only">Runs of this workflow, newest first</legend>
        <ul className="max-h-64 divide-y divide-line overflow-y-auto rounded-lg border border-line">
          {runs.map((run) => (
            <li key={run.id}>
              <label className="flex cursor-pointer items-center gap-3 px-3 py-2 text-sm hover:bg-surface-sunken">
                <input type="checkbox" checked={picked.has(run.id)} onChange={() => toggle(run.id)} className="size-4 accent-accent" />
                <StatusBadge status={run.status} />
                <span className="min-w-0 flex-1 truncate" title={inputsInOneLine(run.inputs)}>
                  {inputsInOneLine(run.inputs)}
                </span>
                <span className="whitespace-nowrap text-xs text-muted">{formatTime(run.createdAt, "date-time")}</span>
              </label>
            </li>
          ))}
        </ul>
        <FieldError id={`${id}-runs`} error={errors.runIds} />
      </fieldset>
      {problems ? <RowProblems message="Some runs cannot be rows: the workflow's inputs changed since. Nothing was made." issues={problems} /> : null}
      <div className="flex flex-wrap items-end gap-4">
        <div className="min-w-60 flex-1">
          <Field id={`${id}-name`} label="Name" required error={errors.name}>
            <input {...fieldAria(`${id}-name`, { error: errors.name })} className={CONTROL_CLASS} value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" />
          </Field>
        </div>
        <Button type="submit" variant="primary" disabled={sending}>
          {sending ? "Making…" : picked.size === 0 ? "Make a dataset" : `Make a dataset of ${picked.size} run${picked.size === 1 ? "" : "s"}`}
        </Button>
      </div>
    </CardForm>
  );
}
