import { describe, expect, it } from "vitest";
import { describeAttempts } from "./attempts";

describe("describeAttempts", () => {
  const now = Date.parse("2026-12-01T10:00:00.000Z");
  it("counts down to the next attempt while a step waits for it", () => {
    const waiting = { status: "retrying" as const, attempt: 1, retryAt: "2026-12-01T10:00:02.300Z" };
    expect(describeAttempts(waiting, 4, now)).toBe("Attempt 1 of 4 failed · next in 3.0 s");
    expect(describeAttempts(waiting, 4, now + 2000)).toBe("Attempt 1 of 4 failed · next attempt starting");
    expect(describeAttempts(waiting, 4, now, { compact: true })).toBe("attempt 2/4 in 3.0 s");
  });

  it("says which attempt runs, and which one ended it", () => {
    expect(describeAttempts({ status: "running", attempt: 2, retryAt: null }, 4, now)).toBe("Attempt 2 of 4");
    expect(describeAttempts({ status: "succeeded", attempt: 3, retryAt: null }, 4, now)).toBe("Succeeded on attempt 3 of 4");
    expect(describeAttempts({ status: "succeeded", attempt: 1, retryAt: null }, 4, now)).toBeNull();
  });

  it("says nothing for a step with one attempt in all", () => {
    expect(describeAttempts({ status: "running", attempt: 1, retryAt: null }, 1, now)).toBeNull();
  });
});
