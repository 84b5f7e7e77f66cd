"use client";

import { Button } from "@/components/ui/button";
import { emptyValue, type FieldDescriptor } from "@/lib/schema-form/field-descriptors";
import { JsonValueInput } from "./json-value-input";
import { ValueInput } from "./value-input";

interface ObjectListEditorProps {
  id: string;
  descriptor: FieldDescriptor;
  value: unknown;
  onChange: (value: Record<string, unknown>[]) => void;
  describedBy?: string | undefined;
}

const PRIMITIVE = new Set(["text", "textarea", "password", "number", "checkbox", "select", "directory"]);

function newItem(fields: readonly FieldDescriptor[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((field) => field.required || field.defaultValue !== undefined).map((field) => [field.key, emptyValue(field)]));
}

/** A list of objects (e.g. a file edit's replacements): one fieldset per item, with add and remove. */
export function ObjectListEditor({ id, descriptor, value, onChange, describedBy }: ObjectListEditorProps) {
  const items = Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
  const setItem = (index: number, key: string, next: unknown) =>
    onChange(
      items.map((item, position) => {
        if (position !== index) return item;
        const copy = { ...item };
        if (next === undefined) delete copy[key];
        else copy[key] = next;
        return copy;
      }),
    );
  return (
    <div id={id} role="group" aria-label={descriptor.label} aria-describedby={describedBy} className="space-y-3">
      {items.length === 0 ? <p className="text-xs text-muted">No items yet.</p> : null}
      {items.map((item, index) => (
        <fieldset key={index} className="space-y-3 rounded-md border border-line bg-surface-sunken/50 p-3">
          <legend className="px-1 text-xs font-medium text-muted">Item {index + 1}</legend>
          {descriptor.fields.map((field) => {
            const fieldId = `${id}-${index}-${field.key}`;
            return (
              <div key={field.key} className={field.widget === "checkbox" ? "flex items-center gap-2" : "space-y-1"}>
                {field.widget === "checkbox" ? (
                  <ValueInput id={fieldId} descriptor={field} value={item[field.key]} onChange={(next) => setItem(index, field.key, next)} />
                ) : null}
                <label htmlFor={fieldId} className="text-xs font-medium">
                  {field.label}
                  {field.required ? <span className="text-caution"> *</span> : null}
                </label>
                {field.widget === "checkbox" ? null : PRIMITIVE.has(field.widget) ? (
                  <ValueInput id={fieldId} descriptor={field} value={item[field.key]} onChange={(next) => setItem(index, field.key, next)} />
                ) : (
                  <JsonValueInput id={fieldId} value={item[field.key]} onChange={(next) => setItem(index, field.key, next)} />
                )}
              </div>
            );
          })}
          <Button variant="ghost" size="sm" onClick={() => onChange(items.filter((_, position) => position !== index))}>
            Remove item {index + 1}
          </Button>
        </fieldset>
      ))}
      <Button size="sm" onClick={() => onChange([...items, newItem(descriptor.fields)])}>
        Add item
      </Button>
    </div>
  );
}
