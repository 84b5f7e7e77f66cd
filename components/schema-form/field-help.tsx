import type { ReactNode } from "react";
import type { FieldDescriptor } from "@/lib/schema-form/field-descriptors";

/**
 * The default to show under a field, as text, or null when there is nothing
 * worth saying (no default, an empty one, a checkbox that shows it already,
 * or a description that says it: "Defaults to 2000").
 */
export function defaultValueText(field: FieldDescriptor): string | null {
  if (field.defaultValue === undefined || field.widget === "checkbox" || /default/i.test(field.description ?? "")) return null;
  // A choice's default in its words ("Stop the run"), where the schema gives them.
  const label = field.optionLabels[String(field.defaultValue)];
  const shown = label ?? (typeof field.defaultValue === "string" ? field.defaultValue : JSON.stringify(field.defaultValue));
  return shown === "" || shown === "{}" || shown === "[]" ? null : shown;
}

interface FieldHelpParts {
  /** The field's description and any credential help, in that order. */
  texts: readonly (string | undefined)[];
  defaultValue: string | null;
  note?: ReactNode;
}

/**
 * A field's help: its words, then the default on a line of its own (never run
 * into the description's last sentence), then any note. A long value such as
 * an address wraps anywhere rather than widening the panel. Undefined when
 * there is nothing to say, so the field renders no help paragraph at all.
 */
export function fieldHelp({ texts, defaultValue, note }: FieldHelpParts): ReactNode {
  const words = texts.filter((text): text is string => Boolean(text)).join(" ");
  if (words === "" && defaultValue === null && !note) return undefined;
  return (
    <>
      {words !== "" ? <span className="block">{words}</span> : null}
      {defaultValue !== null ? (
        <span className="block wrap-anywhere" data-field-default="">
          Default: <code className="font-mono">{defaultValue}</code>
        </span>
      ) : null}
      {note ? <span className="block">{note}</span> : null}
    </>
  );
}
