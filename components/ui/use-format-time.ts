"use client";

import { useCallback, useSyncExternalStore } from "react";
import { formatTime, SERVER_TIME_PLACE, type TimeStyle } from "@/lib/format/date-time";

const subscribeToNothing = () => () => {};

/** False on the server and while the page hydrates, true after: what differs between server and browser renders only then. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

/**
 * Formats times for the person looking: in their browser's locale and zone
 * (lib/format/date-time.ts). The server has neither, so the server render and
 * the hydrating one use a fixed form (UTC) and React renders again with the
 * browser's at once: no hydration mismatch, and no server text left behind.
 * `timeZone` pins a zone (a schedule's) and keeps the viewer's locale.
 */
export function useFormatTime(): (value: string | number | Date, style: TimeStyle, timeZone?: string) => string {
  const inBrowser = useHydrated();
  return useCallback(
    (value, style, timeZone) => formatTime(value, style, inBrowser ? (timeZone ? { timeZone } : {}) : { ...SERVER_TIME_PLACE, ...(timeZone ? { timeZone } : {}) }),
    [inBrowser],
  );
}
