"use client";

import { useSyncExternalStore } from "react";
import { formatExact, formatRelative } from "@/lib/run-view/format-time";

const subscribeToNothing = () => () => {};

/** False on the server and while the page hydrates, true after: what differs between the two clocks renders only then. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

/**
 * "12 s ago", with the exact time on hover. The server's render and the
 * browser's first (hydrating) render show the exact time instead: the two
 * clocks differ by the seconds between them, and a relative text that differs
 * is a hydration error (React #418) rather than a quiet correction.
 */
export function TimeAgo({ value, now, className }: { value: string; now: number; className?: string }) {
  const hydrated = useHydrated();
  return (
    <time dateTime={value} title={formatExact(value)} className={className}>
      {hydrated ? formatRelative(value, now) : formatExact(value)}
    </time>
  );
}
