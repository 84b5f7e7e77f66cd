import { describe, expect, it } from "vitest";
import { ScorerSchema } from "@/lib/contracts/evaluation-scorer";
import { averagesOf, progressOf, slotsFree, statusAfter, verdictsOfUnsucceededRun } from "./evaluation-plan";

const exact = ScorerSchema.parse({ kind: "exact", name: "same" });
const contains = ScorerSchema.parse({ kind: "contains", name: "greets", text: "Hello" });

describe("an evaluation's decisions", () => {
  it("starts rows into the slots its concurrency leaves, and none once it is not running", () => {
    expect(slotsFree("running", 2, 0)).toBe(2);
    expect(slotsFree("running", 2, 1)).toBe(1);
    expect(slotsFree("running", 2, 3)).toBe(0);
    expect(slotsFree("cancelled", 2, 0)).toBe(0);
    expect(slotsFree("finished", 10, 0)).toBe(0);
  });

  it("has finished once no row waits or runs; a cancelled one stays cancelled", () => {
    const progress = progressOf(["scored", "scored", "error", "running", "pending"]);
    expect(progress).toEqual({ pending: 1, running: 1, scored: 2, error: 1, cancelled: 0 });
    expect(statusAfter("running", progress)).toBe("running");
    expect(statusAfter("running", progressOf(["scored", "error"]))).toBe("finished");
    expect(statusAfter("cancelled", progressOf(["scored", "cancelled"]))).toBe("cancelled");
  });

  it("fails every scorer of a row whose run failed or was cancelled, saying so; a succeeded run is scored", () => {
    expect(verdictsOfUnsucceededRun([exact, contains], "failed", "the shell said no")).toEqual([
      { score: 0, passed: false, reason: "the run failed: the shell said no" },
      { score: 0, passed: false, reason: "the run failed: the shell said no" },
    ]);
    expect(verdictsOfUnsucceededRun([exact], "cancelled", null)).toEqual([{ score: 0, passed: false, reason: "the run was cancelled" }]);
    expect(verdictsOfUnsucceededRun([exact], "succeeded", null)).toBeNull();
  });

  it("averages each scorer over the rows it scored; an unscored row counts apart, a row not yet scored not at all", () => {
    const averages = averagesOf(
      [exact, contains],
      [
        [
          { score: 1, passed: true, reason: "" },
          { score: 0, passed: false, reason: "" },
        ],
        [
          { score: 0, passed: false, reason: "" },
          { score: null, passed: null, reason: "no expected output" },
        ],
        [],
      ],
    );
    expect(averages).toEqual([
      { name: "same", kind: "exact", average: 0.5, passed: 1, failed: 1, unscored: 0 },
      { name: "greets", kind: "contains", average: 0, passed: 0, failed: 1, unscored: 1 },
    ]);
    expect(averagesOf([exact], [])[0]!.average).toBeNull();
  });
});
