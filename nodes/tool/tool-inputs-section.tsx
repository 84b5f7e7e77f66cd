"use client";

import { useMemo, useState } from "react";
import { SchemaForm, fieldControlId } from "@/components/schema-form";
import { describeSchema, type JsonSchema } from "@/lib/schema-form/field-descriptors";
import { isTemplate, type ReferenceOption } from "@/lib/schema-form/references";
import type { CatalogTool } from "@/lib/contracts/catalog";
import type { ToolNode } from "./definition";
import { ArgumentModeToggle, type ArgumentMode } from "./argument-mode-toggle";
import { ProblemList } from "@/components/editor/inspector/panel-section";
import { TemplateInput } from "@/components/editor/inspector/template-input";

interface ToolInputsSectionProps {
  node: ToolNode;
  tool: CatalogTool;
  /** The chosen operation's input schema, or the tool's. */
  schema: JsonSchema;
  references: readonly ReferenceOption[];
  /** Problems under `arguments.`, by field path. */
  problems: Record<string, string>;
  onChange: (node: ToolNode) => void;
}

function pick(values: Record<string, unknown>, keys: Iterable<string>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const key of keys) if (values[key] !== undefined) result[key] = values[key];
  return result;
}

/**
 * The operation's inputs: each either a fixed value (the generated widget)
 * or a reference to a run input or an upstream step's output, stored as a
 * `{{ … }}` template in `node.arguments`.
 */
export function ToolInputsSection({ node, tool, schema, references, problems, onChange }: ToolInputsSectionProps) {
  const fields = useMemo(() => describeSchema(schema), [schema]);
  const secretNames = useMemo(() => tool.secretInputs.map((input) => input.name), [tool]);
  // A field switched to "From…" stays so while its reference is still empty.
  const [chosenModes, setChosenModes] = useState<Record<string, ArgumentMode>>({});
  const modeOf = (key: string): ArgumentMode => chosenModes[key] ?? (isTemplate(node.arguments[key]) ? "reference" : "fixed");
  const referenceKeys = fields.map((field) => field.key).filter((key) => modeOf(key) === "reference");
  const idPrefix = `inspector-${node.id}-arguments`;

  const setArguments = (next: Record<string, unknown>) => onChange({ ...node, arguments: next });
  // A new object each render is fine: the form compares values, not identities.
  const hidden = new Set([...secretNames, ...referenceKeys]);
  const fixedValue = Object.fromEntries(Object.entries(node.arguments).filter(([key]) => !hidden.has(key)));

  const replaced = Object.fromEntries(
    referenceKeys.map((key) => {
      const field = fields.find((each) => each.key === key)!;
      const current = node.arguments[key];
      const error = problems[key];
      const id = fieldControlId(idPrefix, key);
      return [
        key,
        <TemplateInput
          key={key}
          id={id}
          value={typeof current === "string" ? current : ""}
          options={references}
          replace
          purpose={field.label}
          placeholder="{{ inputs.name }} or {{ nodes.step.output }}"
          invalid={Boolean(error)}
          describedBy={error ? `${id}-error` : undefined}
          onChange={(template) => {
            // Mid-edit a template may be no template for a moment ("{" typed over it): the field stays From… all the same.
            if (chosenModes[key] !== "reference") setChosenModes((current) => ({ ...current, [key]: "reference" }));
            const next = { ...node.arguments };
            if (template === "") delete next[key];
            else next[key] = template;
            setArguments(next);
          }}
        />,
      ];
    }),
  );

  const notes = Object.fromEntries(tool.pathInputs.map((key) => [key, "A path inside the step's folder (its working directory setting)."]));
  const known = new Set(fields.map((field) => field.key));
  const leftover = Object.entries(problems)
    .filter(([path]) => !known.has(path.split(/[.[]/)[0]!))
    .map(([path, message]) => ({ message: `${path}: ${message}`, severity: "error" as const }));

  if (fields.length === 0) {
    return (
      <>
        <ProblemList problems={leftover} />
        <p className="text-sm text-muted">This operation takes no inputs.</p>
      </>
    );
  }
  return (
    <>
      <ProblemList problems={leftover} />
      <SchemaForm
        schema={schema}
        value={fixedValue}
        idPrefix={idPrefix}
        problems={problems}
        replaced={replaced}
        notes={notes}
        fieldActions={(field) => (
          <ArgumentModeToggle
            fieldLabel={field.label}
            mode={modeOf(field.key)}
            onChange={(mode) => {
              if (mode === modeOf(field.key)) return;
              setChosenModes((current) => ({ ...current, [field.key]: mode }));
              // Switching drops the old kind of value: a template is no fixed value, and vice versa.
              const next = { ...node.arguments };
              delete next[field.key];
              setArguments(next);
            }}
          />
        )}
        onChange={(fixed) => setArguments({ ...fixed, ...pick(node.arguments, [...referenceKeys, ...secretNames]) })}
      />
    </>
  );
}
