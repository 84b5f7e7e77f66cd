"use client";

import { useId, useState } from "react";
import { Controller, type Control, type FieldValues, type Path } from "react-hook-form";
import { CONTROL_CLASS } from "@/components/ui/field";
import { SecretWorkflowsSchema } from "@/lib/validations/secret";
import { fieldSentence } from "./form-issues";
import type { SecretWorkflowChoice } from "./secret-types";

/** Above this many workflows the list is filtered by a search box instead of shown whole. */
const SHOWN_AT_MOST = 50;

/**
 * Which workflows' steps may use the secret: every workflow (null), or only
 * those ticked. A secret made for one workflow's database is then refused to
 * every other workflow's steps, and its value is readable by no one either way.
 */
export function UsableBy({
  id,
  workflows,
  value,
  onChange,
  error,
}: {
  id: string;
  workflows: readonly SecretWorkflowChoice[];
  value: string[] | null | undefined;
  onChange: (workflows: string[] | null) => void;
  error?: string | undefined;
}) {
  const [filter, setFilter] = useState("");
  const filterId = useId();
  const limited = Array.isArray(value);
  const chosen = new Set(value ?? []);
  const matching = workflows.filter((workflow) => workflow.name.toLowerCase().includes(filter.trim().toLowerCase()));
  const shown = [...matching.filter((workflow) => chosen.has(workflow.id)), ...matching.filter((workflow) => !chosen.has(workflow.id))].slice(0, SHOWN_AT_MOST);
  const help = SecretWorkflowsSchema.meta()?.description;
  const toggle = (workflowId: string, on: boolean) => onChange(on ? [...chosen, workflowId] : [...chosen].filter((each) => each !== workflowId));
  return (
    <fieldset aria-describedby={error ? `${id}-error` : `${id}-help`} aria-invalid={error ? true : undefined} className="space-y-2">
      <legend className="mb-1 text-sm font-medium">Usable by</legend>
      <p id={`${id}-help`} className="text-xs text-muted">
        {help}
      </p>
      <label className="flex items-center gap-2 text-sm">
        <input type="radio" name={`${id}-scope`} checked={!limited} onChange={() => onChange(null)} />
        Every workflow
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input type="radio" name={`${id}-scope`} checked={limited} onChange={() => onChange(value ?? [])} />
        Only the workflows chosen below
      </label>
      {limited ? (
        <div className="space-y-2 rounded-md border border-line p-2">
          {workflows.length > 8 ? (
            <input
              id={filterId}
              type="search"
              aria-label="Find a workflow"
              placeholder="Find a workflow"
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
              className={`${CONTROL_CLASS} py-1`}
            />
          ) : null}
          {workflows.length === 0 ? <p className="text-sm text-muted">There are no workflows yet.</p> : null}
          <ul className="max-h-48 space-y-1 overflow-y-auto">
            {shown.map((workflow) => (
              <li key={workflow.id}>
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" checked={chosen.has(workflow.id)} onChange={(event) => toggle(workflow.id, event.target.checked)} />
                  <span className="min-w-0 truncate">{workflow.name}</span>
                </label>
              </li>
            ))}
          </ul>
          {matching.length > shown.length ? <p className="text-xs text-muted">{matching.length - shown.length} more: find them by name.</p> : null}
        </div>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-caution">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** The {@link UsableBy} of a secret form: its `workflows` field, with the field's error (or an item's) as a sentence. */
export function UsableByField<Values extends FieldValues & { workflows?: string[] | null | undefined }>({
  id,
  control,
  workflows,
}: {
  id: string;
  control: Control<Values>;
  workflows: readonly SecretWorkflowChoice[];
}) {
  return (
    <Controller
      control={control}
      name={"workflows" as Path<Values>}
      render={({ field, fieldState }) => (
        <UsableBy id={id} workflows={workflows} value={field.value} onChange={field.onChange} error={fieldSentence(fieldState.error?.message)} />
      )}
    />
  );
}
