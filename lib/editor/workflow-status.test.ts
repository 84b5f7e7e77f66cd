import { describe, expect, it } from "vitest";
import { workflowStatus } from "./workflow-status";

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
