import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable, retryWhileDatabaseUnavailable } from "./database-unavailable";

function coded(code: string, message = "boom"): Error {
  return Object.assign(new Error(message), { code });
}

describe("isDatabaseUnavailable", () => {
  it("knows a server going away, coming up or cut off from one that refused the statement", () => {
    expect(isDatabaseUnavailable(coded("57P01", "terminating connection due to administrator command"))).toBe(true);
    expect(isDatabaseUnavailable(coded("57P03", "the database system is starting up"))).toBe(true);
    expect(isDatabaseUnavailable(coded("08006"))).toBe(true);
    expect(isDatabaseUnavailable(coded("ECONNREFUSED"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("wrapped", { cause: coded("ECONNRESET") }))).toBe(true);

    expect(isDatabaseUnavailable(coded("23505", "duplicate key value violates unique constraint"))).toBe(false);
    expect(isDatabaseUnavailable(coded("P2002"))).toBe(false);
    expect(isDatabaseUnavailable(new Error("Run r1 is driven elsewhere now; this drive's changes are not recorded."))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

describe("retryWhileDatabaseUnavailable", () => {
  /** A clock the sleeps move forward, so the test waits for nothing. */
  function fakeClock() {
    let time = 0;
    const pauses: number[] = [];
    return {
      pauses,
      now: () => time,
      sleep: async (ms: number) => {
        pauses.push(ms);
        time += ms;
      },
    };
  }

  it("tries again while the database cannot be reached, then returns what the work returned", async () => {
    const clock = fakeClock();
    const said: string[] = [];
    let calls = 0;
    const result = await retryWhileDatabaseUnavailable(
      async () => {
        calls++;
        if (calls < 4) throw coded("ECONNREFUSED");
        return "stored";
      },
      { windowMs: 30_000, what: "run r1's changes", log: (message) => said.push(message), ...clock },
    );
    expect(result).toBe("stored");
    expect(calls).toBe(4);
    expect(clock.pauses).toEqual([100, 200, 400]);
    expect(said).toEqual([
      "the database cannot be reached; run r1's changes wait for it (30 s at most)",
      "the database answers again; run r1's changes went through after 700 ms",
    ]);
  });

  it("gives up with the last error once the window has passed", async () => {
    const clock = fakeClock();
    let calls = 0;
    const failing = retryWhileDatabaseUnavailable(
      async () => {
        calls++;
        throw coded("57P03", `starting up (${calls})`);
      },
      { windowMs: 5_000, what: "run r1's changes", ...clock },
    );
    await expect(failing).rejects.toThrow(/starting up/);
    // 100 + 200 + 400 + 800 + 1600 = 3100; the next pause (2000) would end past 5000.
    expect(clock.pauses).toEqual([100, 200, 400, 800, 1600]);
    expect(calls).toBe(6);
  });

  it("does not retry a write the database refused", async () => {
    const clock = fakeClock();
    let calls = 0;
    const refused = retryWhileDatabaseUnavailable(
      async () => {
        calls++;
        throw coded("23505", "duplicate key");
      },
      { windowMs: 30_000, what: "run r1's changes", ...clock },
    );
    await expect(refused).rejects.toThrow("duplicate key");
    expect(calls).toBe(1);
    expect(clock.pauses).toEqual([]);
  });
});
