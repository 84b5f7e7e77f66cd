"use client";

import { useId, useMemo, type ReactNode } from "react";
import { SchemaForm } from "@/components/schema-form";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { AlwaysAllowedSection } from "./always-allowed-section";
import { ApprovalPoliciesSection } from "./approval-policies-section";
import { ApprovalWebhookSection } from "./approval-webhook-section";
import { useOtherWorkflows, WorkflowOptions } from "./other-workflows";
import { ON_ERROR_CHOICES } from "@/lib/contracts/execution-settings";
import { MAX_KEPT_OUTPUT_BYTES, MAX_STORED_RESULT_BYTES } from "@/lib/contracts/run";
import { ERROR_WORKFLOW_INPUTS } from "@/lib/contracts/run-trigger";
import { storedExecution, workflowExecutionFormSchema } from "@/lib/editor/execution-form";
import { problemsUnder } from "@/lib/schema-form/field-descriptors";
import type { WorkflowDefinition } from "@/lib/workflow/definition";
import type { WorkflowProblem } from "@/lib/workflow/validate";

type Mode = WorkflowDefinition["mode"];
type OnError = WorkflowDefinition["onError"];

/** What each permission mode lets happen without asking (lib/tools/permissions/guardrails.ts). */
export const MODE_CHOICES: readonly { value: Mode; label: string; explanation: string }[] = [
  {
    value: "default",
    label: "Ask before changes",
    explanation: "Reading runs freely; every write, edit, shell command or network change waits for a person to approve it.",
  },
  {
    value: "plan",
    label: "Plan first",
    explanation: "Nothing that changes things runs until a person approves the plan; after that, as “Ask before changes”.",
  },
  {
    value: "accept_edits",
    label: "Accept file edits",
    explanation: "File writes and edits are approved automatically; shell commands and network calls still ask.",
  },
  {
    value: "bypass",
    label: "Allow everything",
    explanation: "Nothing asks: only for workflows you trust completely. Guardrails that deny paths or commands still hold.",
  },
];

/** A cap in words, as the notices write it: "1 MB". */
const megabytes = (bytes: number) => `${bytes / 1_000_000} MB`;

/** A workflow's default on error: an error path is drawn per node, so it is no choice here. */
const DEFAULT_ON_ERROR: readonly OnError[] = ["stop", "continue"];

export type WorkflowSettings = Pick<WorkflowDefinition, "name" | "description" | "mode" | "onError" | "execution" | "errorWorkflowId" | "approvals" | "keepFullOutputs" | "traceContent">;

interface WorkflowSettingsPanelProps {
  /** The saved workflow these settings belong to: it is not offered as its own error workflow. */
  workflowId: string;
  settings: WorkflowSettings;
  /** Problems that concern the workflow as a whole (no node). */
  problems: readonly WorkflowProblem[];
  /** One changed field; `key` lets consecutive keystrokes be one undo step. */
  onChange: <Key extends keyof WorkflowSettings>(key: Key, value: WorkflowSettings[Key]) => void;
}

/** The inspector when no node is selected: the workflow's name, description, permission mode and failure handling. */
export function WorkflowSettingsPanel({ workflowId, settings, problems, onChange }: WorkflowSettingsPanelProps) {
  const id = useId();
  const nameError = settings.name.trim() === "" ? "Give the workflow a name." : undefined;
  const mode = MODE_CHOICES.find((choice) => choice.value === settings.mode);
  const onError = ON_ERROR_CHOICES[settings.onError];
  const executionProblems = useMemo(() => problemsUnder("execution", problems), [problems]);
  const errorWorkflowError = problems
    .filter((problem) => problem.field === "errorWorkflowId")
    .map((problem) => problem.message)
    .join(" ");
  // Shown beside their fields; the rest are listed below.
  const otherProblems = problems.filter((problem) => problem.field !== "errorWorkflowId" && !problem.field?.startsWith("execution."));
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-5 p-4">
      <div>
        <h2 id={`${id}-title`} className="text-sm font-semibold">
          Workflow
        </h2>
        <p className="mt-0.5 text-xs text-muted">Select a node to configure it. These settings apply to the whole workflow.</p>
      </div>
      <Field id={`${id}-name`} label="Name" required error={nameError}>
        <input
          {...fieldAria(`${id}-name`, { error: nameError })}
          className={CONTROL_CLASS}
          value={settings.name}
          maxLength={200}
          onChange={(event) => onChange("name", event.target.value)}
        />
      </Field>
      <Field id={`${id}-description`} label="Description" help="What the workflow is for; shown in the list.">
        <textarea
          {...fieldAria(`${id}-description`, { help: true })}
          className={`${CONTROL_CLASS} min-h-20 resize-y`}
          value={settings.description}
          maxLength={5000}
          onChange={(event) => onChange("description", event.target.value)}
        />
      </Field>
      <Field id={`${id}-mode`} label="Permission mode" help={mode?.explanation}>
        <select
          {...fieldAria(`${id}-mode`, { help: mode?.explanation })}
          className={CONTROL_CLASS}
          value={settings.mode}
          onChange={(event) => onChange("mode", event.target.value as Mode)}
        >
          {MODE_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </Field>
      <section aria-labelledby={`${id}-failures`} className="space-y-5 border-t border-line pt-5">
        <div>
          <h3 id={`${id}-failures`} className="text-xs font-semibold uppercase tracking-wide text-muted">
            When a step fails
          </h3>
          <p className="mt-1 text-xs leading-relaxed text-muted">The default for every step; each step may say otherwise under its own On failure.</p>
        </div>
        <Field id={`${id}-on-error`} label="On error" help={onError.explanation}>
          <select
            {...fieldAria(`${id}-on-error`, { help: onError.explanation })}
            className={CONTROL_CLASS}
            value={settings.onError}
            onChange={(event) => onChange("onError", event.target.value as OnError)}
          >
            {DEFAULT_ON_ERROR.map((value) => (
              <option key={value} value={value}>
                {ON_ERROR_CHOICES[value].label}
              </option>
            ))}
          </select>
        </Field>
        <SchemaForm
          schema={workflowExecutionFormSchema()}
          value={(settings.execution ?? {}) as Record<string, unknown>}
          idPrefix={`${id}-execution`}
          problems={executionProblems}
          onChange={(value) => onChange("execution", storedExecution(value) as WorkflowSettings["execution"])}
        />
        <ErrorWorkflowPicker
          id={`${id}-error-workflow`}
          workflowId={workflowId}
          value={settings.errorWorkflowId}
          error={errorWorkflowError || undefined}
          onChange={(value) => onChange("errorWorkflowId", value)}
        />
      </section>
      <section aria-labelledby={`${id}-approvers`} className="space-y-3 border-t border-line pt-5">
        <div>
          <h3 id={`${id}-approvers`} className="text-xs font-semibold uppercase tracking-wide text-muted">
            Who approves
          </h3>
          <p className="mt-1 text-xs leading-relaxed text-muted">Who may decide what waits for a person, and how many must approve. A step may set its own.</p>
        </div>
        <ApprovalPoliciesSection value={settings.approvals} onChange={(value) => onChange("approvals", value)} />
      </section>
      <section aria-labelledby={`${id}-results`} className="space-y-2 border-t border-line pt-5">
        <h3 id={`${id}-results`} className="text-xs font-semibold uppercase tracking-wide text-muted">
          Large results
        </h3>
        <SettingCheckbox title="Keep full outputs" checked={settings.keepFullOutputs === true} onChange={(checked) => onChange("keepFullOutputs", checked || undefined)}>
          A step stores at most {megabytes(MAX_STORED_RESULT_BYTES)} of its result (what the run page shows and later steps read). With this on, a
          larger result is also kept whole, up to {megabytes(MAX_KEPT_OUTPUT_BYTES)}, and can be downloaded from the run page while the run is kept.
        </SettingCheckbox>
      </section>
      <section aria-labelledby={`${id}-traces`} className="space-y-2 border-t border-line pt-5">
        <h3 id={`${id}-traces`} className="text-xs font-semibold uppercase tracking-wide text-muted">
          Traces
        </h3>
        <SettingCheckbox title="Inputs and outputs in traces" checked={settings.traceContent === true} onChange={(checked) => onChange("traceContent", checked || undefined)}>
          Where the studio exports traces (OpenTelemetry), they carry this workflow&apos;s run inputs and output, each step&apos;s output and an
          agent&apos;s tool calls, as the run page shows them, secrets masked. Off: only what ran, how it ended and the tokens used.
        </SettingCheckbox>
      </section>
      <AlwaysAllowedSection workflowId={workflowId} />
      <ApprovalWebhookSection workflowId={workflowId} />
      {otherProblems.length > 0 ? (
        <div className="rounded-lg border border-caution/40 bg-caution-soft p-3">
          <h3 className="text-xs font-semibold text-caution">Problems with the workflow</h3>
          <ul className="mt-1.5 list-disc space-y-1 pl-4 text-xs text-caution">
            {otherProblems.map((problem, index) => (
              <li key={index}>
                {problem.field ? <span className="font-mono">{problem.field}: </span> : null}
                {problem.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

interface ErrorWorkflowPickerProps {
  id: string;
  workflowId: string;
  value: string | undefined;
  error: string | undefined;
  onChange: (value: string | undefined) => void;
}

/** Chooses the workflow that runs when a run of this one fails: any other saved workflow, or none. */
function ErrorWorkflowPicker({ id, workflowId, value, error, onChange }: ErrorWorkflowPickerProps) {
  const { workflows, error: loadError } = useOtherWorkflows(workflowId);
  const help = `Runs when a run of this workflow fails (not for failures a step continues from or whose error path is taken). It is given the inputs ${ERROR_WORKFLOW_INPUTS.join(", ")}: add Run inputs of those names to it to read them, e.g. {{ inputs.error }}.`;
  return (
    <Field id={id} label="Error workflow" help={help} error={error ?? loadError ?? undefined}>
      <select
        {...fieldAria(id, { help, error: error ?? loadError ?? undefined })}
        className={CONTROL_CLASS}
        value={value ?? ""}
        onChange={(event) => onChange(event.target.value === "" ? undefined : event.target.value)}
      >
        <option value="">None</option>
        <WorkflowOptions chosen={value ?? ""} workflows={workflows} />
      </select>
    </Field>
  );
}

/** A workflow setting that is on or off: a checkbox, its title, and what it does in a line or two. */
function SettingCheckbox(props: { title: string; checked: boolean; onChange: (checked: boolean) => void; children: ReactNode }) {
  return (
    <label className="flex items-start gap-2 text-xs">
      <input type="checkbox" className="mt-0.5" checked={props.checked} onChange={(event) => props.onChange(event.target.checked)} />
      <span>
        {props.title}
        <span className="mt-0.5 block leading-relaxed text-muted">{props.children}</span>
      </span>
    </label>
  );
}
