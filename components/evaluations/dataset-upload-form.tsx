"use client";

import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { CardForm } from "@/components/ui/card-form";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { api, ApiError, type ApiIssue } from "@/lib/client/api";
import { DATASET_FILE_MAX_BYTES, DatasetFormatSchema, DatasetNameSchema, type DatasetFormat, type DatasetSummary } from "@/lib/contracts/evaluation-dataset";
import { formatBytes } from "@/lib/format/bytes";
import { RowProblems } from "./row-problems";

/** The format a file's name suggests; CSV when it says nothing. */
function formatOfFile(name: string): DatasetFormat {
  return /\.(jsonl|ndjson)$/i.test(name) ? "jsonl" : "csv";
}

interface Errors {
  name?: string;
  file?: string;
  format?: string;
}

/**
 * Makes a dataset from a CSV or JSON Lines file. The name and the file's size are checked here with the API's own
 * limits; the rows are checked by the studio against the workflow's inputs, and every bad one comes back named by its
 * line, listed under the form.
 */
export function DatasetUploadForm({ workflowId, inputNames, onMade }: { workflowId: string; inputNames: string[]; onMade: (dataset: DatasetSummary) => void }) {
  const id = useId();
  const [name, setName] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState<DatasetFormat>("csv");
  const [errors, setErrors] = useState<Errors>({});
  const [problems, setProblems] = useState<{ message: string; issues: ApiIssue[] } | null>(null);
  const [sending, setSending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: Errors = {};
    const parsedName = DatasetNameSchema.safeParse(name);
    if (!parsedName.success) found.name = parsedName.error.issues[0]!.message;
    if (!file) found.file = "choose a CSV or JSON Lines file";
    else if (file.size > DATASET_FILE_MAX_BYTES) found.file = `the file is ${formatBytes(file.size)}; a dataset is made from at most ${formatBytes(DATASET_FILE_MAX_BYTES)}`;
    setErrors(found);
    setProblems(null);
    if (!parsedName.success || !file || found.file) return;
    setSending(true);
    try {
      const query = new URLSearchParams({ name: parsedName.data, format });
      const { dataset } = await api<{ dataset: DatasetSummary }>(`/api/workflows/${encodeURIComponent(workflowId)}/datasets?${query}`, { file });
      setName("");
      setFile(null);
      (event.target as HTMLFormElement).reset();
      onMade(dataset);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const rows = error.issues.filter((issue) => issue.path.startsWith("rows["));
      const fields = Object.fromEntries(error.issues.filter((issue) => issue.path === "name" || issue.path === "format").map((issue) => [issue.path, issue.message]));
      if (error.status === 409) fields.name = error.message;
      // Anything not about the rows, the name or the format is about the file (too large, not UTF-8).
      const aboutFile = rows.length === 0 && !fields.name && !fields.format;
      setErrors({ ...fields, ...(aboutFile ? { file: error.message } : {}) });
      if (rows.length > 0) setProblems({ message: `${rows.length === 1 ? "One row" : `${rows.length} rows`} cannot be run: fix the file and upload it again. Nothing was made.`, issues: rows });
    } finally {
      setSending(false);
    }
  }

  const header = [...inputNames, ...(inputNames.includes("expected") ? [] : ["expected"])].join(",");
  return (
    <CardForm
      titleId={`${id}-title`}
      title="Upload a file"
      intro={
        <>
          CSV with a header row of the workflow&apos;s inputs and, optionally, <code className="font-mono text-xs">expected</code> (
          <code className="font-mono text-xs">{header}</code>), or JSON Lines, one <code className="font-mono text-xs">{`{"inputs": {…}, "expected": …}`}</code> per line.
          At most {formatBytes(DATASET_FILE_MAX_BYTES)}.
        </>
      }
      onSubmit={submit}
    >
      <div className="grid gap-4 sm:grid-cols-[1fr_1fr_auto]">
        <Field id={`${id}-name`} label="Name" required error={errors.name}>
          <input {...fieldAria(`${id}-name`, { error: errors.name })} className={CONTROL_CLASS} value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" />
        </Field>
        <Field id={`${id}-file`} label="File" required error={errors.file}>
          <input
            {...fieldAria(`${id}-file`, { error: errors.file })}
            type="file"
            accept=".csv,.jsonl,.ndjson,.txt,text/csv,application/x-ndjson"
            className={`${CONTROL_CLASS} py-1`}
            onChange={(event) => {
              const chosen = event.target.files?.[0] ?? null;
              setFile(chosen);
              if (chosen) setFormat(formatOfFile(chosen.name));
            }}
          />
        </Field>
        <Field id={`${id}-format`} label="Format" error={errors.format}>
          <select {...fieldAria(`${id}-format`, { error: errors.format })} className={CONTROL_CLASS} value={format} onChange={(event) => setFormat(DatasetFormatSchema.parse(event.target.value))}>
            <option value="csv">CSV</option>
            <option value="jsonl">JSON Lines</option>
          </select>
        </Field>
      </div>
      {problems ? <RowProblems message={problems.message} issues={problems.issues} /> : null}
      <Button type="submit" variant="primary" disabled={sending}>
        {sending ? "Uploading…" : "Upload"}
      </Button>
    </CardForm>
  );
}
