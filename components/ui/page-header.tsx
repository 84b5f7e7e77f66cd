import type { ReactNode } from "react";

/** A page's title, a line about it, and its main actions. */
export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {description ? <p className="mt-1 max-w-2xl text-sm text-muted">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}

/** What an empty list says, and what to do about it. */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="rounded-xl border border-dashed border-line-strong bg-surface px-6 py-12 text-center">
      <h2 className="text-base font-semibold">{title}</h2>
      {children ? <p className="mx-auto mt-1 max-w-md text-sm text-muted">{children}</p> : null}
      {action ? <div className="mt-5 flex justify-center">{action}</div> : null}
    </div>
  );
}

/** A small spinner for loading states; announced to screen readers by its label. */
export function Spinner({ label = "Loading" }: { label?: string }) {
  return (
    <span role="status" className="inline-flex items-center gap-2 text-sm text-muted">
      <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-line-strong border-t-accent" />
      {/* A tool's progress line often ends in its own "…" ("Running a query…"): one is enough. */}
      {label.endsWith("…") ? label : `${label}…`}
    </span>
  );
}

/** An error a page or panel could not recover from by itself, with what to try. */
export function ErrorNotice({ title = "Something went wrong", children }: { title?: string; children: ReactNode }) {
  return (
    <div role="alert" className="rounded-lg border border-caution/40 bg-caution-soft px-4 py-3 text-sm text-caution">
      <p className="font-semibold">{title}</p>
      <div className="mt-0.5">{children}</div>
    </div>
  );
}
