"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useMemo, useRef, type ReactNode } from "react";
import { FormProvider, get, set, useForm, type FieldErrors, type FieldValues, type Resolver } from "react-hook-form";
import {
  cleanValues,
  describeSchema,
  friendlyMessage,
  nextFormValue,
  without,
  stableStringify,
  type FieldDescriptor,
  type JsonSchema,
} from "@/lib/schema-form/field-descriptors";
import { zodFromJsonSchema } from "@/lib/schema-form/zod-schema";
import { SchemaField, type SchemaFormContext } from "./schema-field";

export interface SchemaFormProps {
  /** An object JSON Schema (a tool's settingsSchema or an operation's inputSchema). */
  schema: JsonSchema;
  value: Record<string, unknown>;
  /** Called on every edit that makes the whole form valid, with blank optional fields left out. */
  onChange: (value: Record<string, unknown>) => void;
  /** Makes control ids unique on the page. */
  idPrefix: string;
  /** Server-side problems by field path relative to the form (`root`, `edits[0].oldText`). */
  problems?: Record<string, string>;
  /** Fields holding a `${NAME}` secret, with the tool they belong to. */
  secrets?: { tool: string; toolTitle: string; inputs: readonly { name: string; credentialHelp: string }[] };
  /**
   * Top-level fields the caller renders instead (e.g. a reference to another step); neither validated nor passed on
   * here. `null` leaves the field out of the form altogether (drawn elsewhere, or not relevant now).
   */
  replaced?: Readonly<Record<string, ReactNode>>;
  /** Controls shown beside a top-level field's label. */
  fieldActions?: (field: FieldDescriptor) => ReactNode;
  /** Extra help for top-level fields. */
  notes?: Readonly<Record<string, ReactNode>>;
  /** Told whether the form as typed is valid, whenever that changes: `onChange` only ever passes on valid values, so a caller that submits must know. */
  onValidityChange?: (valid: boolean) => void;
}

const OPAQUE_WIDGETS = new Set(["list", "record", "object-list", "json"]);

/** Paths of fields edited as one value (a list, a record…), whose inner errors belong to the field itself. */
function opaquePaths(fields: readonly FieldDescriptor[]): string[] {
  return fields.flatMap((field) => (OPAQUE_WIDGETS.has(field.widget) ? [field.path] : field.widget === "object" ? opaquePaths(field.fields) : []));
}

/**
 * react-hook-form shows an error only at the name of the control that
 * changed; an issue inside a list or record (`environment.BAD KEY`) is moved
 * up to the field, naming where it is.
 */
function hoistErrors(errors: FieldErrors, paths: readonly string[]): FieldErrors {
  for (const path of paths) {
    const nested: unknown = get(errors, path);
    if (!nested || typeof nested !== "object" || "type" in nested) continue;
    const found = firstNested(nested as Record<string, unknown>, "");
    if (found) set(errors, path, { type: "nested", message: found });
  }
  return errors;
}

function firstNested(error: Record<string, unknown>, where: string): string | undefined {
  if (typeof error.message === "string") return where ? `${where}: ${friendlyMessage(error.message)}` : error.message;
  for (const [key, child] of Object.entries(error)) {
    if (key === "ref" || !child || typeof child !== "object") continue;
    const label = /^\d+$/.test(key) ? `item ${Number(key) + 1}` : key;
    const found = firstNested(child as Record<string, unknown>, where ? `${where} › ${label}` : label);
    if (found) return found;
  }
  return undefined;
}

/** A checkbox cannot show "unset": it shows the schema's default until changed. */
function withCheckboxDefaults(fields: readonly FieldDescriptor[], values: Record<string, unknown>): Record<string, unknown> {
  const seeded = { ...values };
  for (const field of fields) {
    if (field.widget === "checkbox" && seeded[field.key] === undefined && typeof field.defaultValue === "boolean") seeded[field.key] = field.defaultValue;
  }
  return seeded;
}

/**
 * A form generated from a JSON Schema, validated with the zod schema
 * converted from it. Each edit propagates upward as soon as the edited field
 * is valid; an invalid edit stays in the form with its error. A new `value` from outside
 * (undo, another node) resets the form only when it differs from what the
 * form last passed on, so typing never loses focus.
 *
 * @example
 *   <SchemaForm schema={tool.settingsSchema} value={node.settings} idPrefix={node.id} onChange={(settings) => …} />
 */
export function SchemaForm({ schema, value, onChange, idPrefix, problems = {}, secrets, replaced = {}, fieldActions, notes = {}, onValidityChange }: SchemaFormProps) {
  const secretNames = useMemo(() => secrets?.inputs.map((input) => input.name) ?? [], [secrets]);
  const fields = useMemo(() => describeSchema(schema, "", { secretFields: secretNames }), [schema, secretNames]);
  // Keyed on the set of replaced fields, not on the object's identity, so a parent passing a new
  // object with the same fields does not rebuild the zod schema.
  const replacedSignature = JSON.stringify(Object.keys(replaced).sort());
  const stableReplacedKeys = useMemo(() => JSON.parse(replacedSignature) as string[], [replacedSignature]);
  const validatedFields = useMemo(() => fields.filter((field) => !stableReplacedKeys.includes(field.key)), [fields, stableReplacedKeys]);
  const zodSchema = useMemo(() => zodFromJsonSchema(schema, stableReplacedKeys), [schema, stableReplacedKeys]);

  const resolver = useMemo<Resolver<FieldValues>>(() => {
    const base = zodResolver(zodSchema as never) as unknown as Resolver<FieldValues>;
    const opaque = opaquePaths(validatedFields);
    return async (values, context, options) => {
      const result = await base(cleanValues(validatedFields, without(values, stableReplacedKeys)), context, options);
      hoistErrors(result.errors, opaque);
      return result;
    };
  }, [zodSchema, validatedFields, stableReplacedKeys]);

  const form = useForm<FieldValues>({ defaultValues: withCheckboxDefaults(fields, value), resolver, mode: "onChange" });
  const { reset, subscribe } = form;

  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });
  // What the parent last saw from this form (or gave it): edits are applied to it one field at a time.
  const lastValue = useRef(stableStringify(value));
  const lastObject = useRef(value);

  useEffect(() => {
    const incoming = stableStringify(value);
    if (incoming !== lastValue.current) {
      lastValue.current = incoming;
      lastObject.current = value;
      reset(withCheckboxDefaults(fields, value));
    }
  }, [value, reset, fields]);

  useEffect(
    () =>
      // Like watch(), without re-rendering the form on every keystroke.
      subscribe({
        formState: { values: true },
        callback: ({ values, type, name }) => {
          // Only edits a person made; resets from outside are not echoed back.
          if (type !== "change") return;
          const next = nextFormValue(lastObject.current, values, name, validatedFields, stableReplacedKeys, zodSchema);
          if (!next) return;
          const text = stableStringify(next);
          if (text === lastValue.current) return;
          lastValue.current = text;
          lastObject.current = next;
          onChangeRef.current(next);
        },
      }),
    [subscribe, validatedFields, zodSchema, stableReplacedKeys],
  );

  const onValidityRef = useRef(onValidityChange);
  useEffect(() => {
    onValidityRef.current = onValidityChange;
  });
  // From the errors shown, not `isValid`: that one is only worked out for a form that reads it while rendering.
  useEffect(() => subscribe({ formState: { errors: true }, callback: ({ errors }) => onValidityRef.current?.(Object.keys(errors ?? {}).length === 0) }), [subscribe]);

  const context: SchemaFormContext = { idPrefix, problems, secrets, notes };
  return (
    <FormProvider {...form}>
      <div className="space-y-5">
        {fields
          .filter((field) => replaced[field.key] !== null)
          .map((field) => (
            <SchemaField key={field.key} field={field} context={context} replacement={replaced[field.key]} actions={fieldActions?.(field)} />
          ))}
      </div>
    </FormProvider>
  );
}
