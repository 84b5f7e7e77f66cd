const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 60 * 60],
  ["month", 30 * 24 * 60 * 60],
  ["week", 7 * 24 * 60 * 60],
  ["day", 24 * 60 * 60],
  ["hour", 60 * 60],
  ["minute", 60],
];

/**
 * "just now", "5 minutes ago", "yesterday", "3 weeks ago": how long ago a
 * change was, in the largest whole unit. A time slightly in the future (a
 * clock a little ahead of the server's) still reads "just now".
 */
export function formatRelativeTime(then: Date | string, now: Date, locale = "en"): string {
  const seconds = Math.round((new Date(then).getTime() - now.getTime()) / 1000);
  if (Number.isNaN(seconds)) return "unknown";
  if (Math.abs(seconds) < 45) return "just now";
  const format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(seconds < 0 ? -1 : 1, "minute");
}
