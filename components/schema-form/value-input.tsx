"use client";

import { CONTROL_CLASS } from "@/components/ui/field";
import type { FieldDescriptor } from "@/lib/schema-form/field-descriptors";

interface ValueInputProps {
  id: string;
  descriptor: FieldDescriptor;
  value: unknown;
  onChange: (value: unknown) => void;
  /** For controls without a visible <label>. */
  ariaLabel?: string;
  invalid?: boolean;
  describedBy?: string | undefined;
}

/** A controlled input for one primitive value: an item of a list, a record's value, a field of a list of objects. */
export function ValueInput({ id, descriptor, value, onChange, ariaLabel, invalid, describedBy }: ValueInputProps) {
  const common = {
    id,
    "aria-label": ariaLabel,
    "aria-invalid": invalid ? true : undefined,
    "aria-describedby": describedBy,
  } as const;
  switch (descriptor.widget) {
    case "checkbox":
      return (
        <input
          {...common}
          type="checkbox"
          className="size-4 accent-accent"
          checked={value === true}
          onChange={(event) => onChange(event.target.checked)}
        />
      );
    case "number":
      return (
        <input
          {...common}
          type="number"
          className={CONTROL_CLASS}
          value={typeof value === "number" || typeof value === "string" ? value : ""}
          step={descriptor.integer ? 1 : "any"}
          min={descriptor.minimum}
          max={descriptor.maximum}
          onChange={(event) => onChange(event.target.value === "" ? undefined : Number(event.target.value))}
        />
      );
    case "select":
      return (
        <select
          {...common}
          className={CONTROL_CLASS}
          value={value === undefined || value === null ? "" : String(value)}
          onChange={(event) => onChange(descriptor.options.find((option) => String(option) === event.target.value) ?? undefined)}
        >
          <option value="">Choose…</option>
          {descriptor.options.map((option) => (
            <option key={String(option)} value={String(option)}>
              {String(option)}
            </option>
          ))}
        </select>
      );
    case "textarea":
      return (
        <textarea
          {...common}
          className={`${CONTROL_CLASS} min-h-20 font-mono text-xs`}
          value={typeof value === "string" ? value : ""}
          onChange={(event) => onChange(event.target.value)}
        />
      );
    default:
      return (
        <input
          {...common}
          type={descriptor.widget === "password" ? "password" : "text"}
          className={CONTROL_CLASS}
          value={typeof value === "string" ? value : value === undefined || value === null ? "" : String(value)}
          onChange={(event) => onChange(event.target.value)}
        />
      );
  }
}
