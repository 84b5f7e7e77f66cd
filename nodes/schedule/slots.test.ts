import { describe, expect, it } from "vitest";
import { scheduleReading } from "./reading";
import { compileSchedule, dueSlots, isProblem, isTimeZone, latestAtOrBefore, nextSlots, type CompiledSchedule, type ScheduleSpec } from "./slots";

const spec = (overrides: Partial<ScheduleSpec>): ScheduleSpec => ({ form: "cron", everyMinutes: 15, cron: "* * * * *", timezone: "UTC", ...overrides });

function compiled(overrides: Partial<ScheduleSpec>): CompiledSchedule {
  const result = compileSchedule(spec(overrides), "UTC");
  if (isProblem(result)) throw new Error(result.message);
  return result;
}

const iso = (dates: Date[]) => dates.map((date) => date.toISOString());

describe("schedule slots", () => {
  it("every N minutes: multiples of N since midnight UTC, strictly after the given time", () => {
    const every15 = compiled({ form: "every", everyMinutes: 15 });
    expect(iso(nextSlots(every15, 3, new Date("2026-03-02T10:07:30Z")))).toEqual(["2026-03-02T10:15:00.000Z", "2026-03-02T10:30:00.000Z", "2026-03-02T10:45:00.000Z"]);
    expect(every15.next(new Date("2026-03-02T10:15:00Z"))!.toISOString()).toBe("2026-03-02T10:30:00.000Z");
    // Not a divisor of 60: still evenly spaced (cron's */7 would restart at each hour).
    const every7 = compiled({ form: "every", everyMinutes: 7 });
    const [a, b, c] = nextSlots(every7, 3, new Date("2026-03-02T10:00:00Z"));
    expect(b!.getTime() - a!.getTime()).toBe(7 * 60_000);
    expect(c!.getTime() - b!.getTime()).toBe(7 * 60_000);
  });

  it("a cron expression in a zone: 09:00 on weekdays in Europe/Berlin is 08:00 UTC in winter and 07:00 UTC in summer", () => {
    const weekdays = compiled({ cron: "0 9 * * 1-5", timezone: "Europe/Berlin" });
    expect(iso(nextSlots(weekdays, 3, new Date("2026-03-27T12:00:00Z")))).toEqual([
      "2026-03-30T07:00:00.000Z", // Monday, after the change to summer time on Sunday 29 March
      "2026-03-31T07:00:00.000Z",
      "2026-04-01T07:00:00.000Z",
    ]);
    expect(weekdays.next(new Date("2026-02-02T00:00:00Z"))!.toISOString()).toBe("2026-02-02T08:00:00.000Z");
    expect(weekdays.zone).toBe("Europe/Berlin");
  });

  it("a seconds field: six fields, seconds first", () => {
    const everySecond = compiled({ cron: "* * * * * *" });
    expect(iso(nextSlots(everySecond, 3, new Date("2026-03-02T10:00:00.400Z")))).toEqual(["2026-03-02T10:00:01.000Z", "2026-03-02T10:00:02.000Z", "2026-03-02T10:00:03.000Z"]);
    const everyTen = compiled({ cron: "*/10 * * * * *" });
    expect(everyTen.next(new Date("2026-03-02T10:00:01Z"))!.toISOString()).toBe("2026-03-02T10:00:10.000Z");
  });

  it("a DST day in Europe/Berlin: 02:30 that does not exist fires once at 03:00; 02:30 that happens twice fires once", () => {
    const at0230 = compiled({ cron: "30 2 * * *", timezone: "Europe/Berlin" });
    // Spring forward, Sunday 29 March 2026: clocks jump from 02:00 to 03:00.
    const spring = dueSlots(at0230, new Date("2026-03-28T22:00:00Z"), new Date("2026-03-29T22:00:00Z"), 5);
    expect(spring.count).toBe(1);
    expect(spring.first[0]!.toISOString()).toBe("2026-03-29T01:00:00.000Z");
    // Fall back, Sunday 25 October 2026: 02:00 to 03:00 happens twice; the slot comes once.
    const autumn = dueSlots(at0230, new Date("2026-10-24T22:00:00Z"), new Date("2026-10-25T23:00:00Z"), 5);
    expect(autumn.count).toBe(1);
    // Every 60 minutes stays every 60 minutes across the change.
    const hourly = compiled({ form: "every", everyMinutes: 60, timezone: "Europe/Berlin" });
    expect(dueSlots(hourly, new Date("2026-10-24T22:00:00Z"), new Date("2026-10-25T22:00:00Z"), 0).count).toBe(24);
  });

  it("slots in a window: how many, the newest, the oldest few; a long window stops counting at the limit and still finds the newest", () => {
    const everySecond = compiled({ cron: "* * * * * *" });
    const due = dueSlots(everySecond, new Date("2026-03-02T10:00:00Z"), new Date("2026-03-02T10:00:05.500Z"), 2);
    expect(due).toMatchObject({ count: 5, capped: false });
    expect(iso(due.first)).toEqual(["2026-03-02T10:00:01.000Z", "2026-03-02T10:00:02.000Z"]);
    expect(due.latest!.toISOString()).toBe("2026-03-02T10:00:05.000Z");
    const long = dueSlots(everySecond, new Date("2026-03-01T00:00:00Z"), new Date("2026-03-02T10:00:05.500Z"), 1, 1000);
    expect(long).toMatchObject({ count: 1000, capped: true });
    expect(long.latest!.toISOString()).toBe("2026-03-02T10:00:05.000Z");
    expect(latestAtOrBefore(compiled({ cron: "0 0 1 1 *" }), new Date("2026-03-02T00:00:00Z"))!.toISOString()).toBe("2026-01-01T00:00:00.000Z");
    expect(dueSlots(everySecond, new Date("2026-03-02T10:00:00Z"), new Date("2026-03-02T10:00:00.900Z"), 5).count).toBe(0);
  });

  it("problems name the field and say what is expected", () => {
    const problem = (overrides: Partial<ScheduleSpec>) => {
      const result = compileSchedule(spec(overrides), "UTC");
      return isProblem(result) ? result : null;
    };
    expect(problem({ cron: "* * * *" })).toMatchObject({ field: "cron", message: expect.stringContaining("five fields") });
    expect(problem({ cron: "@daily" })).toMatchObject({ field: "cron" });
    expect(problem({ cron: "* * * * * * *" })).toMatchObject({ field: "cron", message: expect.stringContaining("has 7") });
    expect(problem({ cron: "61 * * * *" })).toMatchObject({ field: "cron", message: expect.stringContaining("minute") });
    expect(problem({ cron: "0 0 30 2 *" })).toMatchObject({ field: "cron", message: expect.stringContaining("never") });
    expect(problem({ cron: "" })).toMatchObject({ field: "cron", message: expect.stringContaining("Enter a cron expression") });
    expect(problem({ timezone: "Mars/Olympus" })).toMatchObject({ field: "timezone", message: expect.stringContaining("IANA") });
    expect(problem({ form: "every", everyMinutes: 0 })).toMatchObject({ field: "everyMinutes" });
    // An invalid cron does not matter while the every form is chosen.
    expect(problem({ form: "every", cron: "nonsense" })).toBeNull();
    expect(isTimeZone("America/New_York")).toBe(true);
    expect(isTimeZone("")).toBe(false);
  });

  it("an empty zone is the fallback zone", () => {
    expect(compiled({ timezone: "" }).zone).toBe("UTC");
    const berlin = compileSchedule(spec({ timezone: "", cron: "0 9 * * *" }), "Europe/Berlin");
    expect(isProblem(berlin) ? null : berlin.next(new Date("2026-02-02T00:00:00Z"))!.toISOString()).toBe("2026-02-02T08:00:00.000Z");
  });

  it("reads a schedule in plain words", () => {
    expect(scheduleReading({ form: "every", everyMinutes: 15, cron: "" })).toBe("Every 15 minutes");
    expect(scheduleReading({ form: "every", everyMinutes: 120, cron: "" })).toBe("Every 2 hours");
    expect(scheduleReading({ form: "cron", everyMinutes: 1, cron: "0 9 * * 1-5" })).toBe("At 09:00, Monday through Friday");
    expect(scheduleReading({ form: "cron", everyMinutes: 1, cron: "* * * * * *" })).toBe("Every second");
    expect(scheduleReading({ form: "cron", everyMinutes: 1, cron: "61 * * * *" })).toBe("Not a cron expression yet");
  });
});
