"use client";

import { ErrorPageActions, useBoundaryError } from "@/components/ui/error-page";

/** When the workflows (or one of them) could not be shown: what happened, and a way back. */
export default function WorkflowsError({ error, reset, retry }: { error: unknown; reset: () => void; retry?: () => void }) {
  const digest = useBoundaryError(error);
  return (
    <div role="alert" className="mx-auto mt-8 max-w-xl rounded-xl border border-line bg-surface p-8 shadow-card">
      <p className="text-sm font-medium text-caution">Workflows</p>
      <h1 className="mt-1 text-xl font-semibold tracking-tight">The workflows could not be shown</h1>
      <p className="mt-2 text-sm leading-relaxed text-muted">
        The studio hit an error while loading them. Nothing was changed. Try again; if it keeps failing, the details are in the
        studio&apos;s log{digest ? <> under the reference <code className="font-mono text-foreground">{digest}</code></> : null}.
      </p>
      <ErrorPageActions reset={reset} retry={retry} backLabel="All workflows" className="mt-6" />
    </div>
  );
}
