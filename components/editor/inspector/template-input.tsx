"use client";

import { useMemo, useRef, useState, type KeyboardEvent, type SyntheticEvent } from "react";
import { CONTROL_CLASS } from "@/components/ui/field";
import { completionFields, EMPTY_SAMPLE_SCOPE, matchingFields, previewField, referenceGroups } from "@/lib/editor/field-mapping";
import { completeTemplate, openTemplateAt } from "@/lib/editor/template-completion";
import { insertAt, type ReferenceOption } from "@/lib/schema-form/references";
import { useSamples } from "../samples";
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

/**
 * Text that may hold `{{ … }}` templates: the reference picker inserts at the
 * cursor, typing `{{` offers the same fields as completions (a combobox:
 * arrows move, Enter or Tab accepts, Escape closes), and below it a preview of
 * what the field would receive from the upstream nodes' samples.
 */
export function TemplateInput({ id, value, onChange, options, multiline, replace, placeholder, purpose, invalid, describedBy }: TemplateInputProps) {
  const ref = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const samples = useSamples();
  const scope = samples?.scope ?? EMPTY_SAMPLE_SCOPE;
  const fields = useMemo(() => completionFields(referenceGroups(options, scope)), [options, scope]);
  const [typing, setTyping] = useState<{ start: number; typed: string } | null>(null);
  const [activeIndex, setActiveIndex] = useState(0);
  const matches = useMemo(() => (typing ? matchingFields(fields, typing.typed) : []), [typing, fields]);
  const listOpen = typing !== null && matches.length > 0;
  const listId = `${id}-completions`;
  const optionId = (index: number) => `${listId}-${index}`;

  const titles = useMemo(() => new Map(options.flatMap((option) => (option.source.kind === "node" ? [[option.source.nodeId, option.source.title] as const] : []))), [options]);
  const preview = useMemo(
    () => (samples?.loaded ? previewField(value, scope, (nodeId) => titles.get(nodeId) ?? nodeId) : null),
    [samples?.loaded, value, scope, titles],
  );
  const previewId = `${id}-preview`;

  const placeCaret = (caret: number) =>
    requestAnimationFrame(() => {
      ref.current?.focus();
      ref.current?.setSelectionRange(caret, caret);
    });
  const pick = (template: string) => {
    const element = ref.current;
    if (replace || !element) {
      onChange(template);
      placeCaret(template.length);
      return;
    }
    const { text, caret } = insertAt(value, element.selectionStart ?? value.length, element.selectionEnd ?? value.length, template);
    onChange(text);
    placeCaret(caret);
  };
  /** Looks at the caret again: a `{{` just typed opens the completions, moving out of it closes them. */
  const follow = (text: string, caret: number | null) => {
    const open = caret === null ? null : openTemplateAt(text, caret);
    setTyping((current) => (open && current?.start === open.start && current.typed === open.typed ? current : open));
    if (!open || open.typed !== typing?.typed) setActiveIndex(0);
  };
  const accept = (index: number) => {
    const field = matches[index];
    const element = ref.current;
    if (!field || !typing || !element) return;
    const { text, caret } = completeTemplate(value, element.selectionStart ?? value.length, typing.start, field.expression);
    setTyping(null);
    onChange(text);
    placeCaret(caret);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (!listOpen) return;
    if (event.key === "ArrowDown") setActiveIndex((index) => (index + 1) % matches.length);
    else if (event.key === "ArrowUp") setActiveIndex((index) => (index - 1 + matches.length) % matches.length);
    else if (event.key === "Enter" || event.key === "Tab") accept(Math.min(activeIndex, matches.length - 1));
    else if (event.key === "Escape") setTyping(null);
    else return;
    event.preventDefault();
    event.stopPropagation();
  };

  const active = Math.min(activeIndex, Math.max(0, matches.length - 1));
  const common = {
    id,
    value,
    placeholder,
    spellCheck: false,
    autoComplete: "off",
    "aria-invalid": invalid ? true : undefined,
    "aria-describedby": [describedBy, preview ? previewId : undefined].filter(Boolean).join(" ") || undefined,
    "aria-autocomplete": "list",
    "aria-activedescendant": listOpen ? optionId(active) : undefined,
    className: `${CONTROL_CLASS} font-mono text-xs`,
  } as const;
  const onSelect = (event: SyntheticEvent<HTMLInputElement | HTMLTextAreaElement>) => follow(event.currentTarget.value, event.currentTarget.selectionStart);
  const onBlur = () => setTyping(null);
  const change = (text: string, caret: number | null) => {
    onChange(text);
    follow(text, caret);
  };
  return (
    <div className="space-y-1.5">
      <div className="relative">
        {multiline ? (
          // A textarea keeps its textbox role (ARIA allows no combobox on it); it still points at the active completion.
          <textarea {...common} ref={ref} aria-controls={listOpen ? listId : undefined} onKeyDown={onKeyDown} onSelect={onSelect} onBlur={onBlur} rows={6} className={`${common.className} min-h-32`} onChange={(event) => change(event.target.value, event.target.selectionStart)} />
        ) : (
          // The list exists only while open; a combobox names it throughout, as ARIA 1.2 asks.
          <input {...common} ref={ref} type="text" role="combobox" aria-expanded={listOpen} aria-controls={listId} onKeyDown={onKeyDown} onSelect={onSelect} onBlur={onBlur} onChange={(event) => change(event.target.value, event.target.selectionStart)} />
        )}
        {listOpen ? (
          <ul id={listId} role="listbox" aria-label={`Completions for ${purpose}`} className="absolute inset-x-0 top-full z-20 mt-1 max-h-60 overflow-auto rounded-md border border-line bg-surface py-1 text-xs shadow-lg">
            {matches.map((field, index) => (
              <li
                key={field.expression}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                // mousedown, not click: the field keeps its focus and caret.
                onMouseDown={(event) => {
                  event.preventDefault();
                  accept(index);
                }}
                className={`flex cursor-pointer items-baseline gap-1.5 px-2 py-1 ${index === active ? "bg-accent-soft" : "hover:bg-background"}`}
              >
                <span className="font-mono text-foreground">{field.expression}</span>
                {field.preview !== "" ? <span className="shrink-0 rounded bg-background px-1 text-[10px] text-muted">{field.type}</span> : null}
                <span className="min-w-0 truncate font-mono text-muted">{field.preview}</span>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {preview ? <FieldPreviewLine id={previewId} preview={preview} /> : null}
      <ReferencePicker id={`${id}-reference`} options={options} onPick={pick} purpose={purpose} />
    </div>
  );
}

function FieldPreviewLine({ id, preview }: { id: string; preview: NonNullable<ReturnType<typeof previewField>> }) {
  if (preview.status === "value") {
    return (
      <p id={id} className="flex min-w-0 items-baseline gap-1.5 text-xs text-muted">
        <span>Preview:</span>
        <span className="min-w-0 truncate font-mono text-foreground">{preview.text === "" ? "(empty text)" : preview.text}</span>
        <span className="shrink-0 rounded bg-background px-1 text-[10px]">{preview.type}</span>
      </p>
    );
  }
  return (
    <p id={id} className={`text-xs ${preview.status === "problem" ? "text-danger" : "text-muted"}`}>
      Preview: {preview.message}
    </p>
  );
}
