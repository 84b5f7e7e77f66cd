import { describe, expect, it } from "vitest";
import { formatRelativeTime } from "./format-relative-time";

const now = new Date("2026-05-10T12:00:00.000Z");
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe("formatRelativeTime", () => {
  it("says just now for the last moments, and for a clock slightly ahead", () => {
    expect(formatRelativeTime(ago(5), now)).toBe("just now");
    expect(formatRelativeTime(ago(-10), now)).toBe("just now");
  });

  it("uses the largest whole unit", () => {
    expect(formatRelativeTime(ago(50), now)).toBe("1 minute ago");
    expect(formatRelativeTime(ago(5 * 60), now)).toBe("5 minutes ago");
    expect(formatRelativeTime(ago(3 * 3600 + 59 * 60), now)).toBe("3 hours ago");
    expect(formatRelativeTime(ago(26 * 3600), now)).toBe("yesterday");
    expect(formatRelativeTime(ago(15 * 86400), now)).toBe("2 weeks ago");
    expect(formatRelativeTime(ago(400 * 86400), now)).toBe("last year");
  });

  it("accepts the API's ISO strings", () => {
    expect(formatRelativeTime("2026-05-10T11:00:00.000Z", now)).toBe("1 hour ago");
  });

  it("says unknown for a time it cannot read", () => {
    expect(formatRelativeTime("not a date", now)).toBe("unknown");
  });
});
