"use client";

import { useId } from "react";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import type { InputField } from "@/lib/workflow/definition";

export type TestInputValues = Record<string, string | boolean>;

/** The form's starting values: what the test would use (the newest run's inputs), else each field's default. */
export function testInputValues(fields: readonly InputField[], given: Record<string, unknown>): TestInputValues {
  const values: TestInputValues = {};
  for (const field of fields) {
    const value = field.name in given ? given[field.name] : field.default;
    if (field.type === "boolean") values[field.name] = value === true || value === "true";
    else values[field.name] = value === undefined || value === null ? "" : String(value);
  }
  return values;
}

interface TestInputsProps {
  fields: readonly InputField[];
  values: TestInputValues;
  /** Where they come from, in words: "from the newest run", "the fields' defaults". */
  origin: string;
  /** A refused start's messages, by field name. */
  errors: Readonly<Record<string, string>>;
  onChange: (values: TestInputValues) => void;
}

/** The run inputs a test run is given: folded away, since the newest run's usually do. */
export function TestInputs({ fields, values, origin, errors, onChange }: TestInputsProps) {
  const id = useId();
  if (fields.length === 0) return null;
  const refused = Object.keys(errors).length > 0;
  return (
    <details open={refused} className="rounded-md border border-line px-3 py-2">
      <summary className="cursor-pointer text-xs font-medium text-muted hover:text-foreground">Run inputs for the test ({origin})</summary>
      <div className="mt-3 space-y-3">
        {fields.map((field) => {
          const fieldId = `${id}-${field.name}`;
          const error = errors[field.name];
          const value = values[field.name];
          const label = field.label ?? field.name;
          if (field.type === "boolean") {
            return (
              <label key={field.name} className="flex items-center gap-2 text-sm">
                <input type="checkbox" checked={value === true} onChange={(event) => onChange({ ...values, [field.name]: event.target.checked })} />
                {label}
              </label>
            );
          }
          return (
            <Field key={field.name} id={fieldId} label={label} required={field.required} error={error}>
              {field.type === "text" ? (
                <textarea
                  {...fieldAria(fieldId, { error })}
                  className={`${CONTROL_CLASS} h-20`}
                  value={String(value ?? "")}
                  onChange={(event) => onChange({ ...values, [field.name]: event.target.value })}
                />
              ) : (
                <input
                  {...fieldAria(fieldId, { error })}
                  className={CONTROL_CLASS}
                  inputMode={field.type === "number" ? "decimal" : undefined}
                  value={String(value ?? "")}
                  onChange={(event) => onChange({ ...values, [field.name]: event.target.value })}
                />
              )}
            </Field>
          );
        })}
      </div>
    </details>
  );
}
