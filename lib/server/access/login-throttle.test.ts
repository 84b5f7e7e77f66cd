import { beforeEach, describe, expect, it } from "vitest";
import { loginRetryAfter, recordLoginAttempt, recordLoginFailure, recordLoginSuccess, resetLoginThrottle } from "./login-throttle";

function fail(address: string, now: number): void {
  recordLoginAttempt(address, now);
  recordLoginFailure(address, now);
}

beforeEach(() => resetLoginThrottle());

describe("the sign-in throttle", () => {
  it("gives an address five free failures, then waits 30 s, doubling with each further failure", () => {
    const start = 1_000_000;
    for (let index = 0; index < 4; index += 1) fail("203.0.113.1", start);
    expect(loginRetryAfter("203.0.113.1", start)).toBe(0);
    fail("203.0.113.1", start);
    expect(loginRetryAfter("203.0.113.1", start)).toBe(30);
    expect(loginRetryAfter("203.0.113.1", start + 30_000)).toBe(0);
    fail("203.0.113.1", start + 30_000);
    expect(loginRetryAfter("203.0.113.1", start + 30_000)).toBe(60);
    // Others are not held up by it.
    expect(loginRetryAfter("127.0.0.1", start)).toBe(0);
  });

  it("caps the wait at an hour and forgets an address an hour after its last failure, or at once on success", () => {
    const start = 5_000_000;
    for (let index = 0; index < 20; index += 1) fail("203.0.113.2", start);
    expect(loginRetryAfter("203.0.113.2", start)).toBe(3600);
    expect(loginRetryAfter("203.0.113.2", start + 3_600_001)).toBe(0);
    for (let index = 0; index < 5; index += 1) fail("203.0.113.3", start);
    recordLoginSuccess("203.0.113.3");
    expect(loginRetryAfter("203.0.113.3", start)).toBe(0);
  });

  it("when guesses come from many addresses, spaces out addresses never seen to succeed, not the owner's", () => {
    const start = 9_000_000;
    recordLoginSuccess("127.0.0.1");
    for (let index = 0; index < 20; index += 1) fail(`198.51.100.${index}`, start);
    expect(loginRetryAfter("198.51.100.99", start)).toBeGreaterThan(0);
    expect(loginRetryAfter("127.0.0.1", start)).toBe(0);
    expect(loginRetryAfter("198.51.100.99", start + 10_000)).toBe(0);
  });
});
