"use client";

import Link from "next/link";
import { useEffect } from "react";
import { Button } from "@/components/ui/button";

/** When the workflows (or one of them) could not be shown: what happened, and a way back. */
export default function WorkflowsError({ error, reset, retry }: { error: unknown; reset: () => void; retry?: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  const digest = error instanceof Error ? (error as Error & { digest?: string }).digest : undefined;
  return (
    <div role="alert" className="mx-auto mt-8 max-w-xl rounded-xl border border-line bg-surface p-8 shadow-card">
      <p className="text-sm font-medium text-caution">Workflows</p>
      <h1 className="mt-1 text-xl font-semibold tracking-tight">The workflows could not be shown</h1>
      <p className="mt-2 text-sm leading-relaxed text-muted">
        The studio hit an error while loading them. Nothing was changed. Try again; if it keeps failing, the details are in the
        studio&apos;s log{digest ? <> under the reference <code className="font-mono text-foreground">{digest}</code></> : null}.
      </p>
      <div className="mt-6 flex flex-wrap gap-2">
        {/* retry() reloads the server data too; reset() alone would re-render what failed. */}
        <Button variant="primary" onClick={() => (retry ?? reset)()}>
          Try again
        </Button>
        <Link
          href="/workflows"
          className="inline-flex h-9 items-center rounded-md border border-line-strong bg-surface px-3.5 text-sm font-medium shadow-card hover:bg-surface-sunken"
        >
          All workflows
        </Link>
      </div>
    </div>
  );
}
