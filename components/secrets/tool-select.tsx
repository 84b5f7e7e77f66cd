"use client";

import { Controller, type Control, type FieldValues, type Path } from "react-hook-form";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { SecretToolSchema } from "@/lib/validations/secret";
import { fieldSentence } from "./form-issues";
import type { SecretTool } from "./secret-types";

/**
 * Which tool's credential picker offers the secret: the tools that declare
 * secret inputs, or any tool. The chosen tool's help on what to paste shows
 * beneath, since that is when a person needs it.
 */
export function ToolSelect({
  id,
  tools,
  value,
  onChange,
  onBlur,
  error,
}: {
  id: string;
  tools: readonly SecretTool[];
  value: string | null | undefined;
  onChange: (tool: string | null) => void;
  onBlur?: () => void;
  error?: string | undefined;
}) {
  const chosen = tools.find((tool) => tool.name === value);
  // A secret may name a tool that no longer declares secret inputs (or is not installed): keep it selectable.
  const unknown = value && !chosen ? value : null;
  const help = chosen?.credentialHelp || SecretToolSchema.meta()?.description;
  return (
    <Field id={id} label="Tool" help={help} error={error}>
      <select
        {...fieldAria(id, { help, error })}
        className={CONTROL_CLASS}
        value={value ?? ""}
        onChange={(event) => onChange(event.target.value === "" ? null : event.target.value)}
        onBlur={onBlur}
      >
        <option value="">Any tool</option>
        {tools.map((tool) => (
          <option key={tool.name} value={tool.name}>
            {tool.title}
          </option>
        ))}
        {unknown ? <option value={unknown}>{unknown} (not installed)</option> : null}
      </select>
    </Field>
  );
}

/** The {@link ToolSelect} of a secret form: its `tool` field, with the field's error as a sentence. */
export function ToolSelectField<Values extends FieldValues & { tool?: string | null | undefined }>({
  id,
  control,
  tools,
}: {
  id: string;
  control: Control<Values>;
  tools: readonly SecretTool[];
}) {
  return (
    <Controller
      control={control}
      name={"tool" as Path<Values>}
      render={({ field, fieldState }) => (
        <ToolSelect id={id} tools={tools} value={field.value} onChange={field.onChange} onBlur={field.onBlur} error={fieldSentence(fieldState.error?.message)} />
      )}
    />
  );
}
