"use client";

import { useRef } from "react";
import { CONTROL_CLASS } from "@/components/ui/field";
import { insertAt, type ReferenceOption } from "@/lib/schema-form/references";
import { ReferencePicker } from "./reference-picker";

interface TemplateInputProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly ReferenceOption[];
  /** A textarea for long templates (the output's value). */
  multiline?: boolean;
  /** Replace the whole value with the picked reference instead of inserting it at the cursor. */
  replace?: boolean;
  placeholder?: string;
  purpose: string;
  invalid?: boolean;
  describedBy?: string | undefined;
}

/** Text that may hold `{{ … }}` templates, with the reference picker inserting at the cursor. */
export function TemplateInput({ id, value, onChange, options, multiline, replace, placeholder, purpose, invalid, describedBy }: TemplateInputProps) {
  const ref = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const pick = (template: string) => {
    const element = ref.current;
    if (replace || !element) {
      onChange(template);
      return;
    }
    const { text, caret } = insertAt(value, element.selectionStart ?? value.length, element.selectionEnd ?? value.length, template);
    onChange(text);
    requestAnimationFrame(() => {
      element.focus();
      element.setSelectionRange(caret, caret);
    });
  };
  const common = {
    id,
    value,
    placeholder,
    spellCheck: false,
    "aria-invalid": invalid ? true : undefined,
    "aria-describedby": describedBy,
    className: `${CONTROL_CLASS} font-mono text-xs`,
  } as const;
  return (
    <div className="space-y-1.5">
      {multiline ? (
        <textarea {...common} ref={ref} rows={6} className={`${common.className} min-h-32`} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input {...common} ref={ref} type="text" onChange={(event) => onChange(event.target.value)} />
      )}
      <ReferencePicker id={`${id}-reference`} options={options} onPick={pick} purpose={purpose} />
    </div>
  );
}
