"use client";

import { useEffect, useId, useState } from "react";
import { useFieldArray, useWatch, type FieldPath, type UseFormSetError } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { CardForm } from "@/components/ui/card-form";
import { CONTROL_CLASS, Field, FieldError, fieldAria } from "@/components/ui/field";
import { useZodForm } from "@/components/ui/use-zod-form";
import { api, ApiError } from "@/lib/client/api";
import {
  DEFAULT_EVALUATION_CONCURRENCY,
  EvaluationStartSchema,
  MAX_EVALUATION_CONCURRENCY,
  MAX_EVALUATION_SCORERS,
  type EvaluationPreflight,
  type EvaluationStartInput,
  type EvaluationSummary,
} from "@/lib/contracts/evaluation";
import type { DatasetSummary } from "@/lib/contracts/evaluation-dataset";
import type { ScorerKind } from "@/lib/contracts/evaluation-scorer";
import { ApprovalNotice } from "./approval-notice";
import { ScorerFields } from "./scorer-fields";
import { newScorer, SCORER_KINDS } from "./scorer-kinds";

interface EvaluationStartFormProps {
  workflowId: string;
  /** The workflow's versions, newest first. */
  versions: number[];
  datasets: DatasetSummary[];
  onStarted: (evaluation: EvaluationSummary) => void;
}

/**
 * Starts an evaluation: which version (or the draft), which dataset, the
 * scorers and how many rows run at once. The form parses with the API's own
 * schema (lib/contracts/evaluation.ts), so a mistake is named on its field
 * before anything is sent, and the server's 422 lands on the same field.
 * Before a start it says which steps will ask for approval in every row.
 */
export function EvaluationStartForm({ workflowId, versions, datasets, onStarted }: EvaluationStartFormProps) {
  const id = useId();
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useZodForm<EvaluationStartInput, ReturnType<typeof EvaluationStartSchema.parse>>(EvaluationStartSchema, {
    datasetId: datasets[0]?.id ?? "",
    version: "draft",
    scorers: [newScorer("exact", "Exact match")],
    concurrency: DEFAULT_EVALUATION_CONCURRENCY,
  });
  const { fields, append, remove, update } = useFieldArray({ control, name: "scorers" });
  const version = useWatch({ control, name: "version" });
  const scorers = useWatch({ control, name: "scorers" });
  const preflight = usePreflight(workflowId, version ?? "draft");

  const submit = handleSubmit(async (body) => {
    try {
      const { evaluation } = await api<{ evaluation: EvaluationSummary }>(`/api/workflows/${encodeURIComponent(workflowId)}/evaluations`, { method: "POST", body });
      onStarted(evaluation);
    } catch (error) {
      placeServerIssues(error, setError);
    }
  });

  /** A name no other scorer has: the kind's label, then "Label 2", "Label 3"… */
  function freeName(kind: ScorerKind, except?: number): string {
    const taken = new Set((scorers ?? []).filter((_, index) => index !== except).map((scorer) => scorer.name));
    const label = SCORER_KINDS.find((each) => each.kind === kind)!.label;
    let name = label;
    for (let count = 2; taken.has(name); count += 1) name = `${label} ${count}`;
    return name;
  }

  /** A scorer of another kind: its settings start afresh; its name follows the kind unless the person named it. */
  function changeKind(index: number, kind: ScorerKind) {
    const current = scorers?.[index]?.name ?? "";
    const given = current !== "" && !SCORER_KINDS.some((each) => new RegExp(`^${each.label}( \\d+)?$`).test(current));
    update(index, newScorer(kind, given ? current : freeName(kind, index)));
  }

  const rootError = errors.root?.server?.message;
  return (
    <CardForm titleId={`${id}-title`} title="Start an evaluation" intro="Each row of the dataset becomes a real run of the version, marked as this evaluation's; its output is scored when it ends." onSubmit={submit} spacing="space-y-5">
      <div className="grid gap-4 sm:grid-cols-3">
        <Field id={`${id}-version`} label="Version" required error={errors.version?.message}>
          <select
            {...register("version", { setValueAs: (value: string | number) => (value === "draft" ? "draft" : Number(value)) })}
            {...fieldAria(`${id}-version`, { error: errors.version?.message })}
            className={CONTROL_CLASS}
          >
            <option value="draft">Draft (newest saved, version {versions[0] ?? 1})</option>
            {versions.map((number) => (
              <option key={number} value={number}>
                Version {number}
              </option>
            ))}
          </select>
        </Field>
        <Field id={`${id}-dataset`} label="Dataset" required error={errors.datasetId?.message}>
          <select {...register("datasetId")} {...fieldAria(`${id}-dataset`, { error: errors.datasetId?.message })} className={CONTROL_CLASS}>
            {datasets.length === 0 ? <option value="">No datasets yet</option> : null}
            {datasets.map((dataset) => (
              <option key={dataset.id} value={dataset.id}>
                {dataset.name} ({dataset.rowCount} {dataset.rowCount === 1 ? "row" : "rows"})
              </option>
            ))}
          </select>
        </Field>
        <Field id={`${id}-concurrency`} label="Rows at once" help={`1 to ${MAX_EVALUATION_CONCURRENCY}.`} error={errors.concurrency?.message}>
          <input
            {...register("concurrency", { valueAsNumber: true })}
            {...fieldAria(`${id}-concurrency`, { help: true, error: errors.concurrency?.message })}
            type="number"
            min={1}
            max={MAX_EVALUATION_CONCURRENCY}
            className={CONTROL_CLASS}
          />
        </Field>
      </div>
      <ApprovalNotice preflight={preflight} />
      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold">Scorers</legend>
        <FieldError id={`${id}-scorers`} error={errors.scorers?.message ?? errors.scorers?.root?.message} />
        {fields.map((row, index) => {
          const kind = scorers?.[index]?.kind ?? row.kind;
          const nameError = errors.scorers?.[index]?.name?.message;
          return (
            <div key={row.id} className="space-y-3 rounded-lg border border-line p-4" data-testid="scorer">
              <div className="grid gap-3 sm:grid-cols-[12rem_1fr_auto] sm:items-end">
                <Field id={`scorer-${index}-kind`} label="Kind">
                  <select
                    id={`scorer-${index}-kind`}
                    value={kind}
                    onChange={(event) => changeKind(index, event.target.value as ScorerKind)}
                    className={CONTROL_CLASS}
                    aria-describedby={`scorer-${index}-kind-help`}
                  >
                    {SCORER_KINDS.map((each) => (
                      <option key={each.kind} value={each.kind}>
                        {each.label}
                      </option>
                    ))}
                  </select>
                </Field>
                <Field id={`scorer-${index}-name`} label="Name" required error={nameError}>
                  <input {...register(`scorers.${index}.name`)} {...fieldAria(`scorer-${index}-name`, { error: nameError })} autoComplete="off" className={CONTROL_CLASS} />
                </Field>
                <Button variant="ghost" onClick={() => remove(index)} disabled={fields.length === 1} aria-label={`Remove scorer ${index + 1}`}>
                  Remove
                </Button>
              </div>
              <p id={`scorer-${index}-kind-help`} className="text-xs text-muted">
                {SCORER_KINDS.find((each) => each.kind === kind)?.help}
              </p>
              <ScorerFields index={index} kind={kind} register={register} control={control} errors={errors} />
            </div>
          );
        })}
        <Button onClick={() => append(newScorer("contains", freeName("contains")))} disabled={fields.length >= MAX_EVALUATION_SCORERS}>
          Add a scorer
        </Button>
      </fieldset>
      {rootError ? (
        <p role="alert" className="text-sm font-medium text-caution">
          {rootError}
        </p>
      ) : null}
      <Button type="submit" variant="primary" disabled={isSubmitting || datasets.length === 0 || preflight?.refusal != null}>
        {isSubmitting ? "Starting…" : "Start the evaluation"}
      </Button>
    </CardForm>
  );
}

/** What the studio says of a version before a start: the steps that will ask, and whether it can be evaluated at all. */
function usePreflight(workflowId: string, version: EvaluationStartInput["version"]): EvaluationPreflight | null {
  const [preflight, setPreflight] = useState<EvaluationPreflight | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    api<{ preflight: EvaluationPreflight }>(`/api/workflows/${encodeURIComponent(workflowId)}/evaluations/preflight?version=${version ?? "draft"}`, { signal: controller.signal })
      .then((answer) => setPreflight(answer.preflight))
      .catch(() => setPreflight(null));
    return () => controller.abort();
  }, [workflowId, version]);
  return preflight;
}

/** The server's 422: each issue on its field (`scorers[0].code` → scorers.0.code), the rest above the button. */
function placeServerIssues(error: unknown, setError: UseFormSetError<EvaluationStartInput>): void {
  const issues = error instanceof ApiError ? error.issues : [];
  const placed = issues.filter((issue) => {
    const path = issue.path.replace(/\[(\d+)\]/g, ".$1");
    if (!/^(datasetId|version|concurrency|scorers(\.\d+(\.[A-Za-z]+)*)?)$/.test(path) || (path === "datasetId" && issues.length > 1)) return false;
    setError(path as FieldPath<EvaluationStartInput>, { type: "server", message: issue.message });
    return true;
  });
  if (placed.length < issues.length || issues.length === 0) setError("root.server", { type: "server", message: error instanceof Error ? error.message : String(error) });
}
