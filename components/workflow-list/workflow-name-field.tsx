import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";

/** The workflow's name in the new and rename dialogs: required, at most 200 characters, focused first. */
export function WorkflowNameField({
  id,
  value,
  onChange,
  error,
  placeholder,
}: {
  id: string;
  value: string;
  onChange: (name: string) => void;
  error: string | undefined;
  placeholder?: string;
}) {
  return (
    <Field id={id} label="Name" required error={error}>
      <input
        {...fieldAria(id, { error })}
        className={CONTROL_CLASS}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        maxLength={200}
        autoComplete="off"
        autoFocus
        placeholder={placeholder}
      />
    </Field>
  );
}
