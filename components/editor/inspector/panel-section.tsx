import type { ReactNode } from "react";

interface PanelSectionProps {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** Shown at the right of the heading. */
  aside?: ReactNode;
}

/** One titled part of the inspector: Settings, Credentials, Inputs, Routes… */
export function PanelSection({ title, description, children, aside }: PanelSectionProps) {
  const headingId = `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  return (
    <section aria-labelledby={headingId} className="space-y-4 border-t border-line px-4 py-5 first:border-t-0">
      <div className="flex items-start justify-between gap-2">
        <div>
          <h3 id={headingId} className="text-xs font-semibold uppercase tracking-wide text-muted">
            {title}
          </h3>
          {description ? <div className="mt-1 text-xs leading-relaxed text-muted">{description}</div> : null}
        </div>
        {aside}
      </div>
      {children}
    </section>
  );
}

/** Problems that belong to no field shown in the panel. */
export function ProblemList({ problems }: { problems: readonly { message: string; severity: "error" | "warning" }[] }) {
  if (problems.length === 0) return null;
  return (
    <ul role="alert" className="space-y-1 rounded-md border border-caution/40 bg-caution-soft px-3 py-2 text-xs text-caution">
      {problems.map((problem, index) => (
        <li key={index}>
          <span className="font-semibold">{problem.severity === "warning" ? "Warning: " : ""}</span>
          {problem.message}
        </li>
      ))}
    </ul>
  );
}
