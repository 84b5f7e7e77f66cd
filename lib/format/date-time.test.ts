import { describe, expect, it } from "vitest";
import { formatTime, SERVER_TIME_PLACE } from "./date-time";

const AT = "2025-03-04T14:05:09.123Z";

describe("formatTime", () => {
  it("follows the locale's clock: 12-hour where people read it so, 24-hour elsewhere", () => {
    expect(formatTime(AT, "clock", { locale: "en-US", timeZone: "UTC" })).toBe("2:05:09 PM");
    expect(formatTime(AT, "clock", { locale: "de-DE", timeZone: "UTC" })).toBe("14:05:09");
    expect(formatTime(AT, "date-time", { locale: "en-US", timeZone: "UTC" })).toBe("Mar 4, 2025, 2:05 PM");
    expect(formatTime(AT, "date-time", { locale: "en-GB", timeZone: "UTC" })).toBe("4 Mar 2025, 14:05");
  });

  it("gives the exact moment with seconds and zone, and a schedule's slot in its own zone", () => {
    expect(formatTime(AT, "exact", SERVER_TIME_PLACE)).toBe("4 Mar 2025, 14:05:09 UTC");
    expect(formatTime(AT, "slot", { locale: "en-US", timeZone: "Asia/Karachi" })).toBe("Tue, Mar 4, 2025, 7:05:09 PM");
  });

  it("uses one clock for every style in one locale", () => {
    for (const style of ["clock", "date-time", "exact", "slot"] as const) {
      expect(formatTime(AT, style, { locale: "en-US", timeZone: "UTC" }), style).toMatch(/PM/);
      expect(formatTime(AT, style, { locale: "en-GB", timeZone: "UTC" }), style).not.toMatch(/PM/);
    }
  });

  it("shows nothing for a value that is no time", () => {
    expect(formatTime("not a time", "clock")).toBe("");
  });
});
