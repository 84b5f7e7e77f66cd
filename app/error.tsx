"use client";

import { ErrorPageActions, useBoundaryError } from "@/components/ui/error-page";

/**
 * The studio's error boundary: a page failed to render. Says so plainly,
 * keeps the navigation, and offers to try again. A server error's message is
 * hidden by Next.js in production; its digest matches the server's log.
 */
export default function StudioError({ error, reset, retry }: { error: unknown; reset: () => void; retry?: () => void }) {
  const digest = useBoundaryError(error);
  // A client-side error's message is the real one and safe to show; a server error's is replaced by Next.js anyway.
  const detail = error instanceof Error && !digest ? error.message : null;
  return (
    <div role="alert" className="mx-auto mt-6 max-w-2xl">
      <p className="font-mono text-sm font-medium text-caution">Error</p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight">Something went wrong on this page</h1>
      <p className="mt-3 max-w-xl text-base leading-7 text-muted">
        The studio could not show it. Nothing you saved is lost. Try again; if it keeps happening, the details are in the studio&apos;s
        log{digest ? " under the reference below" : ""}.
      </p>
      {detail ? (
        <pre className="mt-5 overflow-x-auto whitespace-pre-wrap rounded-lg border border-line bg-surface-sunken px-4 py-3 font-mono text-xs text-foreground">
          {detail}
        </pre>
      ) : null}
      {digest ? (
        <p className="mt-4 text-sm text-muted">
          Reference: <code className="rounded bg-surface-sunken px-1.5 py-0.5 font-mono text-xs text-foreground">{digest}</code>
        </p>
      ) : null}
      <ErrorPageActions reset={reset} retry={retry} backLabel="Go to workflows" className="mt-8" />
    </div>
  );
}
