"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { CONTROL_CLASS, Field, FieldError, fieldAria } from "@/components/ui/field";
import { stableStringify } from "@/lib/schema-form/field-descriptors";
import { coerceDefault, inputFieldErrors, nextInputName } from "@/lib/schema-form/input-fields";
import { move } from "@/lib/schema-form/router-operators";
import { PanelSection } from "@/components/editor/inspector/panel-section";
import type { NodeInspectorPanelProps, NodeKindEditor } from "../node-kind-editor";
import type { InputField, InputNode } from "./definition";

/** A field as edited: the default as typed, so "1." or "" can be on screen. */
type Draft = Omit<InputField, "default"> & { defaultText: string };

const TYPE_LABELS: Record<InputField["type"], string> = {
  string: "Short text",
  text: "Long text",
  number: "Number",
  boolean: "Yes or no",
};

function toDrafts(fields: readonly InputField[]): Draft[] {
  return fields.map(({ default: value, ...rest }) => ({ ...rest, defaultText: value === undefined ? "" : String(value) }));
}

function toFields(drafts: readonly Draft[]): InputField[] {
  return drafts.map(({ defaultText, ...rest }) => {
    const field: InputField = { ...rest };
    const value = coerceDefault(rest.type, defaultText);
    if (value !== undefined) field.default = value;
    if (!field.label) delete field.label;
    if (!field.description) delete field.description;
    return field;
  });
}

function defaultError(draft: Draft): string | undefined {
  if (draft.type === "number" && draft.defaultText.trim() !== "" && !Number.isFinite(Number(draft.defaultText))) return "The default must be a number.";
  return undefined;
}

/** The run's inputs: what a person fills in when they start a run. */
export function InputPanel({ node, problems, onChange }: NodeInspectorPanelProps<InputNode>) {
  const [drafts, setDrafts] = useState<Draft[]>(() => toDrafts(node.fields));
  const emitted = useRef(stableStringify(node.fields));
  useEffect(() => {
    const incoming = stableStringify(node.fields);
    if (incoming !== emitted.current) {
      emitted.current = incoming;
      setDrafts(toDrafts(node.fields));
    }
  }, [node.fields]);

  const nameErrors = inputFieldErrors(drafts);
  const update = (next: Draft[]) => {
    setDrafts(next);
    // Passed on only when every name is valid and unique; until then the panel keeps the draft.
    if (Object.keys(inputFieldErrors(next)).length > 0 || next.some((draft) => defaultError(draft))) return;
    const fields = toFields(next);
    emitted.current = stableStringify(fields);
    onChange({ ...node, fields });
  };
  const change = (index: number, patch: Partial<Draft>) => update(drafts.map((draft, position) => (position === index ? { ...draft, ...patch } : draft)));
  const problemFor = (index: number) =>
    problems
      .filter((problem) => problem.field?.startsWith(`fields[${index}]`))
      .map((problem) => problem.message)
      .join(" ");

  return (
    <PanelSection
      title="Run inputs"
      description="Asked for in a form when a run starts. Steps use them as {{ inputs.name }}."
    >
      {drafts.length === 0 ? <p className="text-sm text-muted">No inputs yet: runs start without asking anything.</p> : null}
      <ol className="space-y-3">
        {drafts.map((draft, index) => {
          const prefix = `inspector-${node.id}-field-${index}`;
          const nameError = nameErrors[index] ?? (problemFor(index) || undefined);
          const defaultProblem = defaultError(draft);
          return (
            <li key={index} className="space-y-3 rounded-lg border border-line bg-surface p-3 shadow-card">
              <div className="flex items-center justify-between gap-2">
                <span className="font-mono text-xs text-muted">{`{{ inputs.${draft.name || "…"} }}`}</span>
                <div className="flex gap-1">
                  <Button size="sm" variant="ghost" disabled={index === 0} aria-label={`Move input ${draft.name || index + 1} up`} onClick={() => update(move(drafts, index, index - 1))}>
                    ↑
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={index === drafts.length - 1}
                    aria-label={`Move input ${draft.name || index + 1} down`}
                    onClick={() => update(move(drafts, index, index + 1))}
                  >
                    ↓
                  </Button>
                  <Button size="sm" variant="ghost" aria-label={`Remove input ${draft.name || index + 1}`} onClick={() => update(drafts.filter((_, position) => position !== index))}>
                    Remove
                  </Button>
                </div>
              </div>
              <div className="grid grid-cols-2 gap-3">
                {/* The name's error goes under both columns (below), where it has the room. */}
                <Field compact id={`${prefix}-name`} label="Name" required>
                  <input
                    {...fieldAria(`${prefix}-name`, { error: nameError })}
                    className={`${CONTROL_CLASS} font-mono`}
                    value={draft.name}
                    aria-required
                    spellCheck={false}
                    autoComplete="off"
                    onChange={(event) => change(index, { name: event.target.value })}
                  />
                </Field>
                <Field compact id={`${prefix}-type`} label="Type">
                  <select
                    id={`${prefix}-type`}
                    className={CONTROL_CLASS}
                    value={draft.type}
                    onChange={(event) => change(index, { type: event.target.value as InputField["type"], defaultText: "" })}
                  >
                    {Object.entries(TYPE_LABELS).map(([value, label]) => (
                      <option key={value} value={value}>
                        {label}
                      </option>
                    ))}
                  </select>
                </Field>
              </div>
              <FieldError id={`${prefix}-name`} error={nameError} />
              <Field compact id={`${prefix}-label`} label="Label">
                <input
                  id={`${prefix}-label`}
                  className={CONTROL_CLASS}
                  value={draft.label ?? ""}
                  placeholder={draft.name}
                  maxLength={200}
                  onChange={(event) => change(index, { label: event.target.value })}
                />
              </Field>
              <Field compact id={`${prefix}-default`} label="Default">
                {draft.type === "boolean" ? (
                  <select id={`${prefix}-default`} className={CONTROL_CLASS} value={draft.defaultText} onChange={(event) => change(index, { defaultText: event.target.value })}>
                    <option value="">No default</option>
                    <option value="true">Yes</option>
                    <option value="false">No</option>
                  </select>
                ) : draft.type === "text" ? (
                  <textarea
                    id={`${prefix}-default`}
                    className={`${CONTROL_CLASS} min-h-16`}
                    value={draft.defaultText}
                    onChange={(event) => change(index, { defaultText: event.target.value })}
                  />
                ) : (
                  <input
                    id={`${prefix}-default`}
                    type={draft.type === "number" ? "number" : "text"}
                    step="any"
                    className={CONTROL_CLASS}
                    value={draft.defaultText}
                    aria-invalid={defaultProblem ? true : undefined}
                    onChange={(event) => change(index, { defaultText: event.target.value })}
                  />
                )}
                {defaultProblem ? <p className="text-xs font-medium text-caution">{defaultProblem}</p> : null}
              </Field>
              <Field compact id={`${prefix}-description`} label="Description">
                <input
                  id={`${prefix}-description`}
                  className={CONTROL_CLASS}
                  value={draft.description ?? ""}
                  maxLength={1000}
                  placeholder="Shown under the field when a run starts"
                  onChange={(event) => change(index, { description: event.target.value })}
                />
              </Field>
              <label className="inline-flex items-center gap-2 text-sm">
                <input type="checkbox" className="size-4 accent-accent" checked={draft.required} onChange={(event) => change(index, { required: event.target.checked })} />
                Required
              </label>
            </li>
          );
        })}
      </ol>
      <Button
        size="sm"
        onClick={() => update([...drafts, { name: nextInputName(drafts), type: "string", required: true, defaultText: "" }])}
      >
        Add input
      </Button>
    </PanelSection>
  );
}

export const inputEditor = {
  Panel: InputPanel,
  problemFields: ["fields"],
} satisfies NodeKindEditor<InputNode>;
