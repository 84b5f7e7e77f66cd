import type { ReactNode } from "react";

interface FieldProps {
  /** The id of the control, so the label and messages point at it. */
  id: string;
  label: ReactNode;
  /** Help text from the schema's description. */
  help?: ReactNode;
  error?: string | undefined;
  required?: boolean;
  children: ReactNode;
}

/** A labelled control with its help text and its inline error, wired for screen readers. */
export function Field({ id, label, help, error, required, children }: FieldProps) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="flex items-baseline gap-1 text-sm font-medium text-foreground">
        {label}
        {required ? (
          <span className="text-caution" aria-hidden="true">
            *
          </span>
        ) : null}
      </label>
      {children}
      {help ? (
        <p id={`${id}-help`} className="text-xs leading-relaxed text-muted wrap-anywhere">
          {help}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-xs font-medium text-caution">
          {error}
        </p>
      ) : null}
    </div>
  );
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
