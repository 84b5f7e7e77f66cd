"use client";

export type ArgumentMode = "fixed" | "reference";

interface ArgumentModeToggleProps {
  fieldLabel: string;
  mode: ArgumentMode;
  onChange: (mode: ArgumentMode) => void;
}

/** Whether an input is a fixed value or a value from the run's inputs or an upstream step. */
export function ArgumentModeToggle({ fieldLabel, mode, onChange }: ArgumentModeToggleProps) {
  const option = (value: ArgumentMode, text: string) => (
    <button
      type="button"
      aria-pressed={mode === value}
      onClick={() => onChange(value)}
      className={`min-h-6 px-2.5 py-0.5 text-[11px] font-medium transition focus-visible:ring-2 focus-visible:ring-accent focus-visible:outline-none ${
        mode === value ? "bg-accent-soft text-accent" : "text-muted hover:text-foreground"
      }`}
    >
      {text}
    </button>
  );
  return (
    <div role="group" aria-label={`How ${fieldLabel} is set`} className="inline-flex overflow-hidden rounded-md border border-line bg-surface">
      {option("fixed", "Fixed")}
      <span aria-hidden="true" className="w-px bg-line" />
      {option("reference", "From…")}
    </div>
  );
}
