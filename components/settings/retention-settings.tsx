"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { applyApiError } from "@/components/secrets/apply-api-error";
import { Button } from "@/components/ui/button";
import { SaveButton } from "./save-button";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { ErrorNotice, PageHeader } from "@/components/ui/page-header";
import { api } from "@/lib/client/api";
import { formatBytes } from "@/lib/format/bytes";
import {
  KEEP_EVERYTHING,
  RetentionFormSchema,
  retentionFormValues,
  RetentionPolicySchema,
  type RetentionFormValues,
  type RetentionOverview,
  type RetentionPolicy,
} from "@/lib/contracts/retention";

const FIELDS = ["keepDays", "keepLast", "keepFailedDays"] as const;
const LABELS: Record<(typeof FIELDS)[number], string> = {
  keepDays: "Keep runs for (days)",
  keepLast: "Keep each workflow's newest (runs)",
  keepFailedDays: "Keep failed runs at least (days)",
};

/** In words, what a setting keeps. */
function describePolicy(policy: RetentionPolicy): string {
  const parts = [
    policy.keepDays !== null ? `${policy.keepDays} days` : null,
    policy.keepLast !== null ? `the newest ${policy.keepLast} runs` : null,
    policy.keepFailedDays !== null ? `failed runs at least ${policy.keepFailedDays} days` : null,
  ].filter(Boolean);
  return parts.length === 0 ? "keeps every run" : `keeps ${parts.join(", ")}`;
}

/**
 * Settings → Data retention: how long finished runs are kept, studio-wide and per workflow, with the database's
 * size and how many runs the settings as saved would remove now. The form parses with the API's own schema
 * (lib/contracts/retention.ts), so a mistake is named on its field before anything is sent, and the server's 422
 * lands on the same field.
 */
export function RetentionSettings({ initial, workflows }: { initial: RetentionOverview; workflows: { id: string; name: string }[] }) {
  const [overview, setOverview] = useState(initial);
  const [overrideFor, setOverrideFor] = useState("");
  const [removing, setRemoving] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const withOwn = new Set(overview.workflows.map((workflow) => workflow.workflowId));
  const choosable = workflows.filter((workflow) => !withOwn.has(workflow.id));

  async function followStudioSetting(workflowId: string) {
    setRemoving(workflowId);
    setProblem(null);
    try {
      setOverview(await api<RetentionOverview>(`/api/workflows/${encodeURIComponent(workflowId)}/retention`, { method: "DELETE" }));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setRemoving(null);
    }
  }

  return (
    <div className="space-y-10">
      <PageHeader
        title="Data retention"
        description="Finished runs are removed in the background once they are older, or further down their workflow's history, than the setting keeps. Running and waiting runs are never removed."
      />
      <dl className="grid gap-4 sm:grid-cols-2" data-testid="retention-figures">
        <div className="rounded-lg border border-line bg-surface p-4 shadow-card">
          <dt className="text-xs font-semibold uppercase tracking-wide text-muted">Database size</dt>
          <dd className="mt-1 text-xl font-semibold tabular-nums">{formatBytes(overview.databaseBytes)}</dd>
          <dd className="mt-1 text-xs text-muted">{overview.spaceNote}</dd>
        </div>
        <div className="rounded-lg border border-line bg-surface p-4 shadow-card">
          <dt className="text-xs font-semibold uppercase tracking-wide text-muted">Removed by the settings as saved</dt>
          <dd className="mt-1 text-xl font-semibold tabular-nums" data-testid="retention-would-remove">
            {overview.wouldRemove} {overview.wouldRemove === 1 ? "run" : "runs"}
          </dd>
          <dd className="mt-1 text-xs text-muted">Removed within a few seconds of saving, then checked hourly.</dd>
        </div>
      </dl>

      <section aria-labelledby="retention-studio" className="space-y-4">
        <h2 id="retention-studio" className="text-lg font-semibold">
          Every workflow
        </h2>
        <p className="text-sm text-muted">Leave a box empty for no limit of that kind. With all three empty, every run is kept.</p>
        <RetentionForm idPrefix="studio" initial={overview.policy} path="/api/settings/retention" submitLabel="Save retention" onSaved={setOverview} />
      </section>

      <section aria-labelledby="retention-workflows" className="space-y-4">
        <h2 id="retention-workflows" className="text-lg font-semibold">
          Workflows with their own setting
        </h2>
        {problem ? <ErrorNotice title="Not changed">{problem}</ErrorNotice> : null}
        {overview.workflows.length === 0 ? (
          <p className="text-sm text-muted">None: every workflow follows the setting above.</p>
        ) : (
          <ul className="divide-y divide-line rounded-lg border border-line bg-surface shadow-card">
            {overview.workflows.map((workflow) => (
              <li key={workflow.workflowId} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
                <span>
                  <span className="font-medium">{workflow.workflowName}</span> <span className="text-muted">{describePolicy(workflow.policy)}</span>
                </span>
                <Button size="sm" onClick={() => void followStudioSetting(workflow.workflowId)} disabled={removing === workflow.workflowId}>
                  Use the setting above
                </Button>
              </li>
            ))}
          </ul>
        )}
        {choosable.length > 0 ? (
          <div className="space-y-4 rounded-lg border border-line p-4">
            <Field id="retention-workflow" label="Give a workflow its own setting">
              <select id="retention-workflow" className={CONTROL_CLASS} value={overrideFor} onChange={(event) => setOverrideFor(event.target.value)}>
                <option value="">Choose a workflow…</option>
                {choosable.map((workflow) => (
                  <option key={workflow.id} value={workflow.id}>
                    {workflow.name}
                  </option>
                ))}
              </select>
            </Field>
            {overrideFor ? (
              <RetentionForm
                key={overrideFor}
                idPrefix="workflow"
                initial={KEEP_EVERYTHING}
                path={`/api/workflows/${encodeURIComponent(overrideFor)}/retention`}
                submitLabel="Save the workflow's setting"
                onSaved={(next) => {
                  setOverview(next);
                  setOverrideFor("");
                }}
              />
            ) : null}
          </div>
        ) : null}
      </section>
    </div>
  );
}

/** The three limits, checked as typed and saved with PUT to `path`; the server's answer (the new overview) goes to `onSaved`. */
function RetentionForm({
  idPrefix,
  initial,
  path,
  submitLabel,
  onSaved,
}: {
  idPrefix: string;
  initial: RetentionPolicy;
  path: string;
  submitLabel: string;
  onSaved: (overview: RetentionOverview) => void;
}) {
  const [saved, setSaved] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<RetentionFormValues, unknown, RetentionPolicy>({
    resolver: zodResolver(RetentionFormSchema),
    defaultValues: retentionFormValues(initial),
    mode: "onTouched",
  });

  const submit = handleSubmit(async (body) => {
    setSaved(false);
    try {
      onSaved(await api<RetentionOverview>(path, { method: "PUT", body }));
      setSaved(true);
    } catch (error) {
      applyApiError(error, setError, FIELDS);
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label={submitLabel}>
      <div className="grid gap-4 sm:grid-cols-3">
        {FIELDS.map((field) => {
          const id = `${idPrefix}-${field}`;
          const error = errors[field]?.message ? `${field}: ${errors[field]?.message}` : undefined;
          const help = RetentionPolicySchema.shape[field].description;
          return (
            <Field key={field} id={id} label={LABELS[field]} help={help} error={error}>
              <input {...register(field)} {...fieldAria(id, { help, error })} className={CONTROL_CLASS} inputMode="numeric" placeholder="no limit" autoComplete="off" />
            </Field>
          );
        })}
      </div>
      {errors.root?.server ? <ErrorNotice title="Not saved">{errors.root.server.message}</ErrorNotice> : null}
      <div className="flex items-center gap-3">
        <SaveButton label={submitLabel} submitting={isSubmitting} saved={saved} />
      </div>
    </form>
  );
}
