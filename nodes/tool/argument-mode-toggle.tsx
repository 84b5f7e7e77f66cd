"use client";

export type ArgumentMode = "fixed" | "reference";

interface ArgumentModeToggleProps {
  fieldLabel: string;
  mode: ArgumentMode;
  onChange: (mode: ArgumentMode) => void;
}

/** Whether an input is a fixed value or a value from the run's inputs or an upstream step. */
export function ArgumentModeToggle({ fieldLabel, mode, onChange }: ArgumentModeToggleProps) {
  // Each button names its field ("Content from…"): a form with three inputs has three of each, and a screen
  // reader's list of buttons or a voice command must tell them apart. The visible word stays in the name.
  const option = (value: ArgumentMode, text: string, name: string, title: string) => (
    <button
      type="button"
      aria-pressed={mode === value}
      aria-label={name}
      title={title}
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
      {option("fixed", "Fixed", `Fixed ${fieldLabel}`, `Type a fixed value for ${fieldLabel}`)}
      <span aria-hidden="true" className="w-px bg-line" />
      {option("reference", "From…", `${fieldLabel} from…`, `Fill ${fieldLabel} from the run's inputs or an earlier step`)}
    </div>
  );
}
