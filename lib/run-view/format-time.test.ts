import { describe, expect, it } from "vitest";
import { formatDuration, formatRelative } from "./format-time";

describe("format-time", () => {
  it("formats durations at every scale", () => {
    expect(formatDuration(250)).toBe("250 ms");
    expect(formatDuration(2_340)).toBe("2.3 s");
    expect(formatDuration(42_000)).toBe("42 s");
    expect(formatDuration(125_000)).toBe("2 min 05 s");
    expect(formatDuration(3_723_000)).toBe("1 h 02 min");
    expect(formatDuration(100_000_000)).toBe("1 d 3 h");
    expect(formatDuration(-5)).toBe("0 ms");
  });

  it("formats times relative to now", () => {
    const now = Date.parse("2025-03-10T12:00:00Z");
    expect(formatRelative("2025-03-10T11:59:58Z", now)).toBe("just now");
    expect(formatRelative("2025-03-10T11:59:30Z", now)).toBe("30 s ago");
    expect(formatRelative("2025-03-10T11:45:00Z", now)).toBe("15 min ago");
    expect(formatRelative("2025-03-10T09:00:00Z", now)).toBe("3 h ago");
    expect(formatRelative("2025-03-09T10:00:00Z", now)).toBe("yesterday");
    expect(formatRelative("2025-03-06T12:00:00Z", now)).toBe("4 days ago");
    expect(formatRelative("2025-01-01T12:00:00Z", now)).toBe("2025-01-01");
    expect(formatRelative("nonsense", now)).toBe("unknown");
  });
});
