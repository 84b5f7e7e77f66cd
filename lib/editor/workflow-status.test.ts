import { describe, expect, it } from "vitest";
import { problemCounts, workflowStatus } from "./workflow-status";

describe("workflowStatus", () => {
  it("says Ready to run only when the cards show no problem and no warning", () => {
    expect(workflowStatus({ errors: 0, warnings: 0, checking: false })).toEqual({ tone: "safe", text: "Ready to run" });
    expect(workflowStatus({ errors: 0, warnings: 2, checking: false })).toEqual({ tone: "caution", text: "2 warnings" });
    expect(workflowStatus({ errors: 0, warnings: 1, checking: false })).toEqual({ tone: "caution", text: "1 warning" });
  });

  it("counts problems first, with the warnings beside them", () => {
    expect(workflowStatus({ errors: 1, warnings: 0, checking: false })).toEqual({ tone: "caution", text: "1 problem" });
    expect(workflowStatus({ errors: 3, warnings: 1, checking: true })).toEqual({ tone: "caution", text: "3 problems, 1 warning" });
  });

  it("says nothing while a check with no known problem is under way", () => {
    expect(workflowStatus({ errors: 0, warnings: 0, checking: true })).toBeNull();
  });
});

describe("problemCounts", () => {
  it("counts a check's errors, and the rest as warnings", () => {
    const problems = [{ severity: "error" as const }, { severity: "warning" as const }, { severity: "error" as const }];
    expect(problemCounts({ problems, checking: true })).toEqual({ errors: 2, warnings: 1, checking: true });
    expect(problemCounts({ problems: [], checking: false })).toEqual({ errors: 0, warnings: 0, checking: false });
  });
});
