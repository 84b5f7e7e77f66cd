"use client";

import { useEffect, useState } from "react";
import { useFormatTime } from "@/components/ui/use-format-time";
import { formatRelativeTime } from "./format-relative-time";

/**
 * "5 minutes ago", kept current while the page stays open, with the full
 * date and time on hover. The server's clock and the browser's differ by a
 * moment, so the first paint's text may be corrected without a warning.
 */
export function RelativeTime({ value }: { value: string }) {
  const [now, setNow] = useState(() => new Date());
  const formatTime = useFormatTime();
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 30_000);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <time dateTime={value} title={formatTime(value, "date-time")} suppressHydrationWarning>
      {formatRelativeTime(value, now)}
    </time>
  );
}
