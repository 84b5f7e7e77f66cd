"use client";

import Link from "next/link";
import { useEffect } from "react";
import { Button } from "./button";

/** For an error boundary (error.tsx): logs its error to the console and returns the digest a server error carries, its reference in the server's log. */
export function useBoundaryError(error: unknown): string | undefined {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return error instanceof Error ? (error as Error & { digest?: string }).digest : undefined;
}

/** An error boundary's way out: Try again, and a link to the workflows (`backLabel` names it). */
export function ErrorPageActions({ reset, retry, backLabel, className }: { reset: () => void; retry?: () => void; backLabel: string; className: string }) {
  return (
    <div className={`flex flex-wrap gap-2 ${className}`}>
      {/* retry() fetches the page's server data again; reset() alone would re-render what already failed. */}
      <Button variant="primary" onClick={() => (retry ?? reset)()}>
        Try again
      </Button>
      <Link
        href="/workflows"
        className="inline-flex h-9 items-center rounded-md border border-line-strong bg-surface px-3.5 text-sm font-medium shadow-card hover:bg-surface-sunken"
      >
        {backLabel}
      </Link>
    </div>
  );
}
