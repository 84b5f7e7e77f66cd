"use client";

import type { ReactElement, ReactNode } from "react";
import { Controller, get, useFormContext, useFormState, type ControllerRenderProps } from "react-hook-form";
import { CONTROL_CLASS, Field, FieldError, FieldHelp, fieldAria } from "@/components/ui/field";
import { friendlyMessage, type FieldDescriptor } from "@/lib/schema-form/field-descriptors";
import { DirectoryPicker } from "./directory-picker";
import { defaultValueText, fieldHelp } from "./field-help";
import { JsonValueInput } from "./json-value-input";
import { ListEditor } from "./list-editor";
import { ObjectListEditor } from "./object-list-editor";
import { RecordEditor } from "./record-editor";
import { SecretPicker } from "./secret-picker";

/** What every field of one form shares. */
export interface SchemaFormContext {
  idPrefix: string;
  problems: Record<string, string>;
  secrets: { tool: string; toolTitle: string; inputs: readonly { name: string; credentialHelp: string }[] } | undefined;
  notes: Readonly<Record<string, ReactNode>>;
}

/** The id of a field's control, so a caller rendering a replacement can wire the label to it. */
export function fieldControlId(idPrefix: string, path: string): string {
  return `${idPrefix}-${path.replace(/[^A-Za-z0-9_-]/g, "-")}`;
}

/** The first message anywhere in a react-hook-form error subtree. */
function firstMessage(error: unknown): string | undefined {
  if (!error || typeof error !== "object") return undefined;
  const message = (error as { message?: unknown }).message;
  if (typeof message === "string" && message !== "") return message;
  for (const [key, child] of Object.entries(error)) {
    if (key === "ref" || key === "type") continue;
    const found = firstMessage(child);
    if (found) return found;
  }
  return undefined;
}

/** Server problems at `path` or anywhere below it. */
function problemAt(problems: Record<string, string>, path: string): string | undefined {
  const found = Object.entries(problems)
    .filter(([key]) => key === path || key.startsWith(`${path}.`) || key.startsWith(`${path}[`))
    .map(([key, message]) => (key === path ? message : `${key.slice(path.length).replace(/^\./, "")}: ${message}`));
  return found.length > 0 ? found.join(" ") : undefined;
}

interface SchemaFieldProps {
  field: FieldDescriptor;
  context: SchemaFormContext;
  /** Rendered in place of the widget. */
  replacement?: ReactNode;
  actions?: ReactNode;
}

/** One field of a generated form: its widget, label, help, required mark and errors. */
export function SchemaField({ field, context, replacement, actions }: SchemaFieldProps) {
  const { register, control } = useFormContext();
  const { errors } = useFormState({ control, name: field.path });
  const id = fieldControlId(context.idPrefix, field.path);
  const clientError = replacement === undefined ? firstMessage(get(errors, field.path)) : undefined;
  const serverProblem = problemAt(context.problems, field.path);
  const error = clientError ? friendlyMessage(clientError) : serverProblem ? friendlyMessage(serverProblem) : undefined;
  const secret = context.secrets?.inputs.find((input) => input.name === field.key);
  const note = context.notes[field.path];
  const help = fieldHelp({ texts: [field.description, secret?.credentialHelp], defaultValue: defaultValueText(field), note });
  const aria = fieldAria(id, { help, error });
  const describedBy = aria["aria-describedby"];
  const invalid = Boolean(error);

  if (field.widget === "object" && replacement === undefined) {
    return (
      <fieldset className="space-y-4 rounded-lg border border-line p-4" aria-describedby={describedBy}>
        <legend className="px-1 text-sm font-semibold">
          {field.label}
          {field.required ? <span className="text-caution"> *</span> : null}
        </legend>
        {field.description ? (
          <p id={`${id}-help`} className="text-xs text-muted">
            {field.description}
          </p>
        ) : null}
        {field.fields.map((child) => (
          <SchemaField key={child.key} field={child} context={context} />
        ))}
      </fieldset>
    );
  }

  if (field.widget === "checkbox" && replacement === undefined) {
    return (
      <div className="relative space-y-1">
        {actions ? <div className="absolute right-0 top-0">{actions}</div> : null}
        <div className="flex max-w-[calc(100%-7.5rem)] items-center gap-2">
          <input {...aria} {...register(field.path)} type="checkbox" className="size-4 accent-accent" />
          <label htmlFor={id} className="text-sm font-medium">
            {field.label}
          </label>
        </div>
        <FieldHelp id={id} help={help} />
        <FieldError id={id} error={error} />
      </div>
    );
  }

  return (
    <div className="relative">
      {actions ? <div className="absolute right-0 top-0 z-10">{actions}</div> : null}
      <Field id={id} label={<span className={actions ? "inline-block max-w-[calc(100%-7.5rem)]" : undefined}>{field.label}</span>} help={help} error={error} required={field.required}>
        {replacement !== undefined ? replacement : <Widget field={field} id={id} invalid={invalid} describedBy={describedBy} aria={aria} context={context} />}
      </Field>
    </div>
  );
}

interface WidgetProps {
  field: FieldDescriptor;
  id: string;
  invalid: boolean;
  describedBy: string | undefined;
  aria: ReturnType<typeof fieldAria>;
  context: SchemaFormContext;
}

/**
 * What a widget that keeps its value itself (a picker, a list editor; not a native input) gets from the form, through
 * react-hook-form's controller. Each takes the part it uses.
 */
type ControlledProps = Pick<ControllerRenderProps, "value" | "onChange" | "onBlur"> & { id: string; invalid: boolean; describedBy: string | undefined };

function Widget({ field, id, invalid, describedBy, aria, context }: WidgetProps) {
  const { register, control } = useFormContext();
  const controlled = (draw: (props: ControlledProps) => ReactElement) => (
    <Controller control={control} name={field.path} render={({ field: { value, onChange, onBlur } }) => draw({ id, value, onChange, onBlur, invalid, describedBy })} />
  );
  switch (field.widget) {
    case "text":
    case "password":
      return (
        <input
          {...aria}
          {...register(field.path)}
          type={field.widget === "password" ? "password" : "text"}
          className={CONTROL_CLASS}
          autoComplete={field.widget === "password" ? "new-password" : "off"}
          aria-required={field.required}
        />
      );
    case "textarea":
      return <textarea {...aria} {...register(field.path)} className={`${CONTROL_CLASS} min-h-24 font-mono text-xs`} aria-required={field.required} />;
    case "number":
      return (
        <input
          {...aria}
          {...register(field.path, {
            setValueAs: (raw: unknown) => (raw === "" || raw === null || raw === undefined ? undefined : typeof raw === "number" ? raw : Number(raw)),
          })}
          type="number"
          inputMode={field.integer ? "numeric" : "decimal"}
          step={field.integer ? 1 : "any"}
          min={field.minimum}
          max={field.maximum}
          placeholder={typeof field.defaultValue === "number" ? String(field.defaultValue) : undefined}
          className={CONTROL_CLASS}
          aria-required={field.required}
        />
      );
    case "select":
      return (
        <select
          {...aria}
          {...register(field.path, {
            setValueAs: (raw: unknown) => (raw === "" ? undefined : (field.options.find((option) => String(option) === String(raw)) ?? raw)),
          })}
          className={CONTROL_CLASS}
          aria-required={field.required}
        >
          {field.defaultValue !== undefined ? (
            <option value="">Default ({field.optionLabels[String(field.defaultValue)] ?? String(field.defaultValue)})</option>
          ) : field.required ? (
            <option value="" disabled>
              Choose…
            </option>
          ) : (
            <option value="">Not set</option>
          )}
          {field.options.map((option) => (
            <option key={String(option)} value={String(option)}>
              {field.optionLabels[String(option)] ?? String(option)}
            </option>
          ))}
        </select>
      );
    case "directory":
      return controlled((props) => <DirectoryPicker {...props} required={field.required} />);
    case "secret": {
      const secrets = context.secrets;
      const input = secrets?.inputs.find((each) => each.name === field.key);
      if (!secrets || !input) return null;
      return controlled((props) => <SecretPicker {...props} tool={secrets.tool} toolTitle={secrets.toolTitle} credentialHelp={input.credentialHelp} />);
    }
    case "list":
      return controlled((props) => <ListEditor {...props} descriptor={field} />);
    case "record":
      return controlled((props) => <RecordEditor {...props} descriptor={field} />);
    case "object-list":
      return controlled((props) => <ObjectListEditor {...props} descriptor={field} />);
    default:
      return controlled((props) => <JsonValueInput {...props} />);
  }
}
