"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { ErrorNotice } from "@/components/ui/page-header";
import { api, ApiError } from "@/lib/client/api";
import type { InputField } from "@/lib/workflow/definition";
import type { WorkflowProblem } from "@/lib/workflow/validate";

type FormValues = Record<string, string | boolean>;

interface RunDialogProps {
  open: boolean;
  workflowId: string;
  /** The input node's fields (none when the workflow has no input node). */
  fields: readonly InputField[];
  /** Node labels by id, to name the nodes a refused run points at. */
  nodeNames: ReadonlyMap<string, string>;
  onClose: () => void;
  /** The workflow itself is not valid: its problems, to show on the canvas. */
  onProblems: (problems: WorkflowProblem[]) => void;
}

function defaultValues(fields: readonly InputField[]): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    if (field.type === "boolean") values[field.name] = field.default === true || field.default === "true";
    else values[field.name] = field.default === undefined ? "" : String(field.default);
  }
  return values;
}

/** The form's values as the run's inputs: blank optional fields left out, numbers as numbers. */
export function toRunInputs(fields: readonly InputField[], values: FormValues): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.type === "boolean") inputs[field.name] = value === true;
    else if (typeof value === "string") {
      if (value === "" && field.type === "number") continue;
      if (value === "" && !field.required) continue;
      inputs[field.name] = field.type === "number" && Number.isFinite(Number(value)) ? Number(value) : value;
    }
  }
  return inputs;
}

/** Asks for the run's inputs (a form generated from the input node), starts the run, then opens it. */
export function RunDialog(props: RunDialogProps) {
  return props.open ? <RunForm {...props} /> : null;
}

function RunForm({ workflowId, fields, nodeNames, onClose, onProblems }: RunDialogProps) {
  const id = useId();
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const [problems, setProblems] = useState<WorkflowProblem[]>([]);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<FormValues>({ defaultValues: defaultValues(fields) });

  const submit = handleSubmit(async (values) => {
    setFormError(null);
    setProblems([]);
    try {
      const { run } = await api<{ run: { id: string } }>(`/api/workflows/${encodeURIComponent(workflowId)}/runs`, {
        body: { inputs: toRunInputs(fields, values) },
      });
      router.push(`/runs/${encodeURIComponent(run.id)}`);
    } catch (failure) {
      if (!(failure instanceof ApiError)) {
        setFormError("The run could not be started.");
        return;
      }
      const refused = Array.isArray(failure.body.problems) ? (failure.body.problems as WorkflowProblem[]) : [];
      if (refused.length > 0) {
        setProblems(refused);
        onProblems(refused);
        return;
      }
      let unplaced = failure.issues.length === 0;
      for (const issue of failure.issues) {
        const name = issue.path.replace(/^inputs\.?/, "").split(".")[0] ?? "";
        if (fields.some((field) => field.name === name)) setError(name, { type: "server", message: issue.message });
        else unplaced = true;
      }
      if (unplaced) setFormError(failure.message);
    }
  });

  return (
    <Dialog
      open
      onClose={onClose}
      title="Run the workflow"
      description={fields.length === 0 ? "This workflow asks for no inputs." : "Fill in what this run works on."}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form={`${id}-form`} disabled={isSubmitting}>
            {isSubmitting ? "Starting…" : "Start run"}
          </Button>
        </>
      }
    >
      <form id={`${id}-form`} onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
        {formError ? <ErrorNotice title="The run did not start">{formError}</ErrorNotice> : null}
        {problems.length > 0 ? (
          <ErrorNotice title="The workflow cannot run yet">
            <p>
              Fix these{problems.some((problem) => problem.nodeId) ? " (the nodes concerned are marked on the canvas)" : ""}, then run
              again:
            </p>
            <ul className="mt-1 list-disc space-y-0.5 pl-5">
              {problems.map((problem, index) => (
                <li key={index}>
                  {problem.nodeId ? <strong>{nodeNames.get(problem.nodeId) ?? problem.nodeId}: </strong> : null}
                  {problem.message}
                </li>
              ))}
            </ul>
          </ErrorNotice>
        ) : null}
        {fields.map((field) => {
          const fieldId = `${id}-${field.name}`;
          const error = errors[field.name]?.message;
          const label = field.label || field.name;
          if (field.type === "boolean") {
            return (
              <div key={field.name} className="space-y-1">
                <label htmlFor={fieldId} className="flex items-center gap-2 text-sm font-medium">
                  <input
                    type="checkbox"
                    {...fieldAria(fieldId, { help: field.description, error })}
                    {...register(field.name)}
                    className="size-4 accent-[var(--accent)]"
                  />
                  {label}
                </label>
                {field.description ? (
                  <p id={`${fieldId}-help`} className="text-xs text-muted">
                    {field.description}
                  </p>
                ) : null}
                {error ? (
                  <p id={`${fieldId}-error`} role="alert" className="text-xs font-medium text-caution">
                    {error}
                  </p>
                ) : null}
              </div>
            );
          }
          const aria = fieldAria(fieldId, { help: field.description, error });
          const rules = { required: field.required && field.default === undefined ? `Fill in ${label}: the run needs it.` : false };
          return (
            <Field key={field.name} id={fieldId} label={label} help={field.description} error={error} required={field.required}>
              {field.type === "text" ? (
                <textarea {...aria} {...register(field.name, rules)} className={`${CONTROL_CLASS} min-h-24 resize-y`} aria-required={field.required} />
              ) : (
                <input
                  {...aria}
                  {...register(field.name, rules)}
                  type={field.type === "number" ? "number" : "text"}
                  step={field.type === "number" ? "any" : undefined}
                  className={CONTROL_CLASS}
                  aria-required={field.required}
                />
              )}
            </Field>
          );
        })}
      </form>
    </Dialog>
  );
}
