"use client";

import { Button } from "@/components/ui/button";
import { emptyValue, type FieldDescriptor } from "@/lib/schema-form/field-descriptors";
import { ValueInput } from "./value-input";

interface ListEditorProps {
  id: string;
  descriptor: FieldDescriptor;
  value: unknown;
  onChange: (value: unknown[]) => void;
  invalid?: boolean;
  describedBy?: string | undefined;
}

/** A list of primitive values: one input per item, with add and remove. */
export function ListEditor({ id, descriptor, value, onChange, invalid, describedBy }: ListEditorProps) {
  const items = Array.isArray(value) ? value : [];
  const item = descriptor.item;
  if (!item) return null;
  const noun = descriptor.label.toLowerCase();
  return (
    <div id={id} role="group" aria-label={descriptor.label} aria-describedby={describedBy} className="space-y-2">
      {items.length === 0 ? <p className="text-xs text-muted">No items yet.</p> : null}
      {items.map((entry, index) => (
        <div key={index} className="flex items-center gap-2">
          <ValueInput
            id={`${id}-${index}`}
            descriptor={item}
            value={entry}
            ariaLabel={`${descriptor.label}, item ${index + 1}`}
            invalid={invalid}
            onChange={(next) => onChange(items.map((current, position) => (position === index ? next : current)))}
          />
          <Button
            variant="ghost"
            size="sm"
            aria-label={`Remove item ${index + 1} of ${noun}`}
            onClick={() => onChange(items.filter((_, position) => position !== index))}
          >
            Remove
          </Button>
        </div>
      ))}
      <Button size="sm" onClick={() => onChange([...items, emptyValue(item)])}>
        Add item
      </Button>
    </div>
  );
}
