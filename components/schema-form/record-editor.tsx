"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { CONTROL_CLASS } from "@/components/ui/field";
import { emptyValue, stableStringify, type FieldDescriptor } from "@/lib/schema-form/field-descriptors";
import { ValueInput } from "./value-input";

interface RecordEditorProps {
  id: string;
  descriptor: FieldDescriptor;
  value: unknown;
  onChange: (value: Record<string, unknown>) => void;
  invalid?: boolean;
  describedBy?: string | undefined;
}

type Row = { key: string; value: unknown };

function toRows(value: unknown): Row[] {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? Object.entries(value as Record<string, unknown>).map(([key, item]) => ({ key, value: item }))
    : [];
}

function toRecord(rows: readonly Row[]): Record<string, unknown> {
  // A row still without a name is kept on screen but not in the value.
  return Object.fromEntries(rows.filter((row) => row.key !== "").map((row) => [row.key, row.value]));
}

/** A key/value list (a JSON Schema record): rows stay in the order typed, even while a key is being edited. */
export function RecordEditor({ id, descriptor, value, onChange, invalid, describedBy }: RecordEditorProps) {
  const [rows, setRows] = useState<Row[]>(() => toRows(value));
  const emitted = useRef(stableStringify(toRecord(rows)));
  useEffect(() => {
    const incoming = stableStringify(toRecord(toRows(value)));
    if (incoming !== emitted.current) {
      emitted.current = incoming;
      setRows(toRows(value));
    }
  }, [value]);
  const item = descriptor.item;
  if (!item) return null;
  const update = (next: Row[]) => {
    setRows(next);
    const record = toRecord(next);
    emitted.current = stableStringify(record);
    onChange(record);
  };
  const keyCounts = new Map<string, number>();
  rows.forEach((row) => keyCounts.set(row.key, (keyCounts.get(row.key) ?? 0) + 1));
  return (
    <div id={id} role="group" aria-label={descriptor.label} aria-describedby={describedBy} className="space-y-2">
      {rows.length === 0 ? <p className="text-xs text-muted">No entries yet.</p> : null}
      {rows.map((row, index) => {
        const duplicate = row.key !== "" && (keyCounts.get(row.key) ?? 0) > 1;
        return (
          <div key={index} className="space-y-1">
            <div className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)_auto] items-center gap-2">
              <input
                className={CONTROL_CLASS}
                aria-label={`${descriptor.label}, name ${index + 1}`}
                aria-invalid={duplicate || invalid ? true : undefined}
                placeholder="Name"
                value={row.key}
                onChange={(event) => update(rows.map((current, position) => (position === index ? { ...current, key: event.target.value } : current)))}
              />
              <ValueInput
                id={`${id}-${index}-value`}
                descriptor={item}
                value={row.value}
                ariaLabel={`${descriptor.label}, value ${index + 1}`}
                onChange={(next) => update(rows.map((current, position) => (position === index ? { ...current, value: next } : current)))}
              />
              <Button variant="ghost" size="sm" aria-label={`Remove entry ${index + 1}`} onClick={() => update(rows.filter((_, position) => position !== index))}>
                Remove
              </Button>
            </div>
            {duplicate ? <p className="text-xs text-caution">The name {row.key} is used twice; only the last one is kept.</p> : null}
          </div>
        );
      })}
      <Button size="sm" onClick={() => update([...rows, { key: "", value: emptyValue(item) }])}>
        Add entry
      </Button>
    </div>
  );
}
