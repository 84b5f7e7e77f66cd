"use client";

import { useFormatTime, useHydrated } from "@/components/ui/use-format-time";
import { formatRelative } from "@/lib/run-view/format-time";

/**
 * "12 s ago", with the exact time (in the viewer's locale) on hover. The
 * server's render and the browser's first (hydrating) render show the exact
 * time instead: the two clocks differ by the seconds between them, and a
 * relative text that differs is a hydration error (React #418) rather than a
 * quiet correction.
 */
export function TimeAgo({ value, now, className }: { value: string; now: number; className?: string }) {
  const hydrated = useHydrated();
  const formatTime = useFormatTime();
  const exact = formatTime(value, "exact");
  return (
    <time dateTime={value} title={exact} className={className}>
      {hydrated ? formatRelative(value, now) : exact}
    </time>
  );
}
