import { describe, expect, it } from "vitest";
import { newId } from "./ids";

describe("newId", () => {
  it("is 26 Crockford base32 characters that sort by time", () => {
    const earlier = newId(1_700_000_000_000);
    const later = newId(1_700_000_000_001);
    expect(earlier).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(earlier < later).toBe(true);
    expect(newId()).not.toBe(newId());
  });

  it("never repeats, across the refills of its pool of random bytes", () => {
    const ids = Array.from({ length: 2000 }, () => newId(1_700_000_000_000));
    expect(new Set(ids).size).toBe(2000);
    expect(new Set(ids.map((id) => id.slice(10))).size).toBe(2000);
  });
});
