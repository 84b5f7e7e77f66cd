"use client";

import { useState } from "react";
import { Controller, type Control, type FieldErrors, type RegisterOptions, type UseFormRegister } from "react-hook-form";
import { ModelProviderOptions } from "@/components/editor/model-fields";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import type { EvaluationStartInput } from "@/lib/contracts/evaluation";
import type { ScorerKind } from "@/lib/contracts/evaluation-scorer";

type Register = UseFormRegister<EvaluationStartInput>;
/** One scorer's errors, whatever its kind: each field's message, by the field's path below the scorer. */
type ScorerErrors = Record<string, { message?: string } | Record<string, { message?: string }> | undefined> | undefined;

/**
 * A JSON Schema typed as text: kept as the text typed while it is not JSON (the schema then says it is not an
 * object), read as JSON once it is; shown as JSON when it already is.
 */
function SchemaText({ value, onChange, onBlur, aria }: { value: unknown; onChange: (value: unknown) => void; onBlur: () => void; aria: ReturnType<typeof fieldAria> }) {
  // The text as typed: a value read as JSON is not shown back reformatted under the caret.
  const [text, setText] = useState(() => (typeof value === "string" ? value : JSON.stringify(value, null, 2)));
  return (
    <textarea
      {...aria}
      value={text}
      onBlur={onBlur}
      onChange={(event) => {
        setText(event.target.value);
        try {
          onChange(JSON.parse(event.target.value) as unknown);
        } catch {
          onChange(event.target.value);
        }
      }}
      rows={4}
      spellCheck={false}
      className={`${CONTROL_CLASS} font-mono text-xs`}
    />
  );
}

/**
 * The settings of scorer `index`, by its kind: the fields the contract
 * (lib/contracts/evaluation-scorer.ts) has, each with its inline error.
 */
export function ScorerFields({
  index,
  kind,
  register,
  control,
  errors,
}: {
  index: number;
  kind: ScorerKind;
  register: Register;
  control: Control<EvaluationStartInput>;
  errors: FieldErrors<EvaluationStartInput>;
}) {
  const own = errors.scorers?.[index] as ScorerErrors;
  const id = (field: string) => `scorer-${index}-${field.replace(".", "-")}`;
  const errorOf = (field: string): string | undefined => {
    const [first, second] = field.split(".") as [string, string | undefined];
    const entry = own?.[first] as { message?: string } & Record<string, { message?: string }>;
    return second ? entry?.[second]?.message : entry?.message;
  };
  // Paths below scorers.N, checked by the schema the form parses with; react-hook-form's types cannot follow a union's members.
  type ScorerPath = `scorers.${number}.name`;
  const field = (name: string, options?: { valueAsNumber?: true; setValueAs?: (value: string) => unknown }) =>
    register(`scorers.${index}.${name}` as ScorerPath, options as RegisterOptions<EvaluationStartInput, ScorerPath>);
  // `optional`: an empty box is no value (an absent server address, no key), not an empty text the schema would refuse.
  const text = (name: string, label: string, help?: string, placeholder?: string, optional = false) => (
    <Field id={id(name)} label={label} help={help} error={errorOf(name)}>
      <input
        {...field(name, optional ? { setValueAs: (value: string) => (value.trim() === "" ? undefined : value.trim()) } : undefined)}
        {...fieldAria(id(name), { help, error: errorOf(name) })}
        placeholder={placeholder}
        autoComplete="off"
        className={CONTROL_CLASS}
      />
    </Field>
  );
  const check = (name: string, label: string) => (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" {...field(name)} className="size-4 accent-[var(--color-accent)]" />
      {label}
    </label>
  );
  switch (kind) {
    case "exact":
      return (
        <div className="flex flex-wrap gap-4">
          {check("caseSensitive", "Case counts")}
          {check("trim", "Ignore spaces around it")}
        </div>
      );
    case "contains":
      return (
        <div className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
          {text("text", "Text", "Empty: the row's expected output.")}
          {check("caseSensitive", "Case counts")}
        </div>
      );
    case "json-equal":
      return text("path", "Path", "Where in the output to compare, e.g. data.total; empty for the whole.", "data.total");
    case "number":
      return (
        <div className="grid gap-3 sm:grid-cols-2">
          {text("path", "Path", "Where the number is, e.g. data.total; empty for the whole output.", "data.total")}
          <Field id={id("tolerance")} label="Tolerance" help="How far from the expected number still passes." error={errorOf("tolerance")}>
            <input {...field("tolerance", { valueAsNumber: true })} {...fieldAria(id("tolerance"), { help: true, error: errorOf("tolerance") })} type="number" step="any" min={0} className={CONTROL_CLASS} />
          </Field>
        </div>
      );
    case "regex":
      return (
        <div className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
          {text("pattern", "Pattern", "A JavaScript regular expression, without slashes.", "^Hello ")}
          {check("caseSensitive", "Case counts")}
        </div>
      );
    case "json-schema":
      return (
        <Field id={id("schema")} label="JSON Schema" help="The schema the output must fit, as JSON." error={errorOf("schema")}>
          <Controller
            control={control}
            name={`scorers.${index}.schema` as `scorers.${number}.name`}
            render={({ field: schema }) => (
              <SchemaText value={schema.value as unknown} onChange={schema.onChange} onBlur={schema.onBlur} aria={fieldAria(id("schema"), { help: true, error: errorOf("schema") })} />
            )}
          />
        </Field>
      );
    case "llm-judge":
      return (
        <div className="space-y-3">
          <Field id={id("rubric")} label="Rubric" required help="What a good output does: the judge scores by this alone." error={errorOf("rubric")}>
            <textarea {...field("rubric")} {...fieldAria(id("rubric"), { help: true, error: errorOf("rubric") })} rows={3} className={CONTROL_CLASS} />
          </Field>
          <div className="grid gap-3 sm:grid-cols-2">
            <Field id={id("model.provider")} label="Provider" required error={errorOf("model.provider")}>
              <select {...field("model.provider")} {...fieldAria(id("model.provider"), { error: errorOf("model.provider") })} className={CONTROL_CLASS}>
                <ModelProviderOptions />
              </select>
            </Field>
            {text("model.model", "Model", "The model id, e.g. gpt-4.1-mini or llama3.1.")}
            {text("model.baseUrl", "Server address", "For an OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1.", "http://127.0.0.1:11434/v1", true)}
            {text("model.apiKey", "API key", "A stored secret, as ${NAME}; never the key itself.", "${OPENAI_API_KEY}", true)}
            <Field id={id("threshold")} label="Passes from" help="The score, 0 to 1, from which the output passes." error={errorOf("threshold")}>
              <input {...field("threshold", { valueAsNumber: true })} {...fieldAria(id("threshold"), { help: true, error: errorOf("threshold") })} type="number" step="0.05" min={0} max={1} className={CONTROL_CLASS} />
            </Field>
          </div>
        </div>
      );
    case "code":
      return (
        <div className="space-y-3">
          <Field id={id("code")} label="Code" required help="The body of a function of output, expected and inputs; return a score from 0 to 1, true or false, or { score, passed, reason }." error={errorOf("code")}>
            <textarea {...field("code")} {...fieldAria(id("code"), { help: true, error: errorOf("code") })} rows={4} spellCheck={false} className={`${CONTROL_CLASS} font-mono text-xs`} />
          </Field>
          <Field id={id("timeLimitMs")} label="Time limit (ms)" error={errorOf("timeLimitMs")}>
            <input {...field("timeLimitMs", { valueAsNumber: true })} {...fieldAria(id("timeLimitMs"), { error: errorOf("timeLimitMs") })} type="number" className={`${CONTROL_CLASS} max-w-40`} />
          </Field>
        </div>
      );
  }
}
