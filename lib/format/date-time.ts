/**
 * Every time the studio shows, in one format per use, in the viewer's locale
 * and clock: a browser in the US reads "2:05:09 PM", one in Germany
 * "14:05:09". Components format through useFormatTime
 * (components/ui/use-format-time.ts), which renders a fixed form (UTC,
 * 24-hour) on the server, where no browser locale exists, and the viewer's
 * form once in the browser, so hydration never mismatches.
 */

export type TimeStyle = "clock" | "date-time" | "exact" | "slot";

const OPTIONS: Record<TimeStyle, Intl.DateTimeFormatOptions> = {
  /** A timeline entry: "2:05:09 PM" / "14:05:09". */
  clock: { hour: "numeric", minute: "2-digit", second: "2-digit" },
  /** When something was saved: "Mar 4, 2025, 2:05 PM". */
  "date-time": { dateStyle: "medium", timeStyle: "short" },
  /** A title's exact moment, with seconds and the zone: "Mar 4, 2025, 2:05:09 PM UTC". */
  exact: { dateStyle: "medium", timeStyle: "long" },
  /** A schedule's next firing: "Tue, Mar 4, 2025, 2:05:00 PM". */
  slot: { weekday: "short", day: "numeric", month: "short", year: "numeric", hour: "numeric", minute: "2-digit", second: "2-digit" },
};

export interface TimeFormatPlace {
  /** A BCP 47 locale; the runtime's own (the browser's) when left out. */
  locale?: string;
  /** An IANA zone; the runtime's own when left out. */
  timeZone?: string;
}

/** The fixed form rendered where no viewer is known (the server). */
export const SERVER_TIME_PLACE: TimeFormatPlace = { locale: "en-GB", timeZone: "UTC" };

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * A time in `style`, for the locale and zone of `place`; "" for a value that is no time.
 *
 * @example
 *   formatTime("2025-03-04T14:05:09Z", "clock", { locale: "en-US", timeZone: "UTC" }) // "2:05:09 PM"
 *   formatTime("2025-03-04T14:05:09Z", "clock", { locale: "de-DE", timeZone: "UTC" }) // "14:05:09"
 */
export function formatTime(value: string | number | Date, style: TimeStyle, place: TimeFormatPlace = {}): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  const key = `${style}|${place.locale ?? ""}|${place.timeZone ?? ""}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(place.locale, { ...OPTIONS[style], ...(place.timeZone ? { timeZone: place.timeZone } : {}) });
    formats.set(key, format);
  }
  return format.format(date);
}
