import type { ReactNode } from "react";

interface FieldProps {
  /** The id of the control, so the label and messages point at it. */
  id: string;
  label: ReactNode;
  /** Help text from the schema's description. */
  help?: ReactNode;
  error?: string | undefined;
  required?: boolean;
  /** The inspector's smaller label and spacing (its panels are narrow). */
  compact?: boolean;
  children: ReactNode;
}

/** A labelled control with its help text and its inline error, wired for screen readers (see {@link fieldAria}). */
export function Field({ id, label, help, error, required, compact = false, children }: FieldProps) {
  return (
    <div className={compact ? "space-y-1" : "space-y-1.5"}>
      {compact ? (
        <label htmlFor={id} className="text-xs font-medium">
          {label}
          {required ? (
            <>
              {" "}
              <RequiredMark />
            </>
          ) : null}
        </label>
      ) : (
        <label htmlFor={id} className="flex items-baseline gap-1 text-sm font-medium text-foreground">
          {label}
          {required ? <RequiredMark /> : null}
        </label>
      )}
      {children}
      <FieldHelp id={id} help={help} />
      <FieldError id={id} error={error} />
    </div>
  );
}

/** The star after a required field's label; screen readers hear "required" from the control instead. */
function RequiredMark() {
  return (
    <span className="text-caution" aria-hidden="true">
      *
    </span>
  );
}

/** A control's help text, `${id}-help`, for a control laid out without {@link Field}. */
export function FieldHelp({ id, help }: { id: string; help?: ReactNode }) {
  return help ? (
    <p id={`${id}-help`} className="text-xs leading-relaxed text-muted wrap-anywhere">
      {help}
    </p>
  ) : null;
}

/** A control's inline error, `${id}-error`, announced when it appears; for a control (or a row of them) laid out without {@link Field}. */
export function FieldError({ id, error }: { id: string; error?: string | undefined }) {
  return error ? (
    <p id={`${id}-error`} role="alert" className="text-xs font-medium text-caution">
      {error}
    </p>
  ) : null;
}

/** The aria attributes a control inside a {@link Field} needs. */
export function fieldAria(id: string, { help, error }: { help?: unknown; error?: string | undefined }) {
  const describedBy = [help ? `${id}-help` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return {
    id,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy || undefined,
  } as const;
}

export const CONTROL_CLASS =
  "w-full rounded-md border border-line-control bg-surface px-3 py-2 text-sm text-foreground shadow-card outline-none placeholder:text-muted focus-visible:ring-2 focus-visible:ring-accent aria-[invalid=true]:border-caution disabled:opacity-60";
