"use client";

import { useId } from "react";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
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

export const ON_ERROR_CHOICES: readonly { value: OnError; label: string; explanation: string }[] = [
  { value: "stop", label: "Stop the run", explanation: "The first failed step fails the whole run; nothing after it starts." },
  {
    value: "continue",
    label: "Continue with the rest",
    explanation: "Steps that depended on the failed one are skipped; independent branches carry on.",
  },
];

type WorkflowSettings = Pick<WorkflowDefinition, "name" | "description" | "mode" | "onError">;

interface WorkflowSettingsPanelProps {
  settings: WorkflowSettings;
  /** Problems that concern the workflow as a whole (no node). */
  problems: readonly WorkflowProblem[];
  /** One changed field; `key` lets consecutive keystrokes be one undo step. */
  onChange: <Key extends keyof WorkflowSettings>(key: Key, value: WorkflowSettings[Key]) => void;
}

/** The inspector when no node is selected: the workflow's name, description, permission mode and failure policy. */
export function WorkflowSettingsPanel({ settings, problems, onChange }: WorkflowSettingsPanelProps) {
  const id = useId();
  const nameError = settings.name.trim() === "" ? "Give the workflow a name." : undefined;
  const mode = MODE_CHOICES.find((choice) => choice.value === settings.mode);
  const onError = ON_ERROR_CHOICES.find((choice) => choice.value === settings.onError);
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
      <Field id={`${id}-on-error`} label="When a step fails" help={onError?.explanation}>
        <select
          {...fieldAria(`${id}-on-error`, { help: onError?.explanation })}
          className={CONTROL_CLASS}
          value={settings.onError}
          onChange={(event) => onChange("onError", event.target.value as OnError)}
        >
          {ON_ERROR_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </Field>
      {problems.length > 0 ? (
        <div className="rounded-lg border border-caution/40 bg-caution-soft p-3">
          <h3 className="text-xs font-semibold text-caution">Problems with the workflow</h3>
          <ul className="mt-1.5 list-disc space-y-1 pl-4 text-xs text-caution">
            {problems.map((problem, index) => (
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
