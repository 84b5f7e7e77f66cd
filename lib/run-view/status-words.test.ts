import { describe, expect, it } from "vitest";
import { statusWords, stepStatusWords } from "./status-words";

describe("status words", () => {
  it("says a waiting step waits for you only when it waits for a person", () => {
    expect(stepStatusWords("waiting", "tool")).toBe("waiting for you");
    expect(stepStatusWords("waiting", "agent")).toBe("waiting for you");
    // Nobody is asked anything while a Sub-workflow step waits for the run it called.
    expect(stepStatusWords("waiting", "subworkflow")).toBe("waiting for the run it called");
  });

  it("says a run or a step waits for approval, not for you, to a reader who may not decide it", () => {
    expect(statusWords("awaiting_input", { forYou: false })).toBe("waiting for approval");
    expect(stepStatusWords("waiting", "tool", { forYou: false })).toBe("waiting for approval");
    // What it waits for is no person's: the same words for everyone.
    expect(stepStatusWords("waiting", "subworkflow", { forYou: false })).toBe("waiting for the run it called");
    expect(statusWords("running", { forYou: false })).toBe("running");
  });

  it("says every other status the same for every kind, as the run's own words", () => {
    for (const status of ["pending", "running", "retrying", "succeeded", "failed", "skipped", "attached"] as const) {
      expect(stepStatusWords(status, "subworkflow")).toBe(statusWords(status));
      expect(stepStatusWords(status, "tool")).toBe(statusWords(status));
    }
    expect(statusWords("awaiting_input")).toBe("waiting for you");
    // A loop's body is no step of the loop's run: it runs per item there.
    expect(stepStatusWords("skipped", "tool", { inLoop: true })).toBe("runs per item");
    expect(stepStatusWords("waiting", "foreach")).toBe("waiting for its items");
  });
});
