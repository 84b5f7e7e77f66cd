"use client";

import { CONTROL_CLASS } from "@/components/ui/field";
import type { ReferenceOption } from "@/lib/schema-form/references";

interface ReferencePickerProps {
  id: string;
  options: readonly ReferenceOption[];
  onPick: (template: string) => void;
  /** What the picker is for, read by screen readers: "Use a value from… for Path". */
  purpose?: string;
}

/** "Use a value from…": the run's inputs and upstream steps' outputs, as `{{ … }}` templates. */
export function ReferencePicker({ id, options, onPick, purpose }: ReferencePickerProps) {
  const groups = (["Run inputs", "This item", "Upstream steps"] as const).map((group) => ({ group, items: options.filter((option) => option.group === group) }));
  const empty = options.length === 0;
  return (
    <select
      id={id}
      className={`${CONTROL_CLASS} w-auto max-w-full text-xs`}
      value=""
      disabled={empty}
      aria-label={purpose ? `Use a value from… for ${purpose}` : "Use a value from…"}
      title={empty ? "Connect this node after the input node or another step to use their values." : undefined}
      onChange={(event) => {
        if (event.target.value) onPick(event.target.value);
      }}
    >
      <option value="">{empty ? "No inputs or upstream steps yet" : "Use a value from…"}</option>
      {groups.map(({ group, items }) =>
        items.length > 0 ? (
          <optgroup key={group} label={group}>
            {items.map((option) => (
              <option key={option.template} value={option.template}>
                {option.label}
              </option>
            ))}
          </optgroup>
        ) : null,
      )}
    </select>
  );
}
