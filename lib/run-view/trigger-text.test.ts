import { describe, expect, it } from "vitest";
import { PERSON_TRIGGER } from "@/lib/contracts/run-trigger";
import { triggerDetailText } from "./trigger-text";

describe("what started a run, in words", () => {
  it("says Run button for a person's run, and what they did for a run made from another", () => {
    expect(triggerDetailText(PERSON_TRIGGER)).toBe("Run button");
    expect(triggerDetailText(PERSON_TRIGGER, "retry-from-failure")).toBe("Retry from the failed step");
    expect(triggerDetailText(PERSON_TRIGGER, "run-again")).toBe("Run again");
    // Runs another run started keep their own trigger's words.
    expect(triggerDetailText({ kind: "sub-workflow", nodeId: null }, "sub-workflow")).toBe("Sub-workflow step");
  });

  it("names the editor's button for a test run, and a webhook's delivery for a test delivery", () => {
    expect(triggerDetailText({ ...PERSON_TRIGGER, test: true, testOf: { nodeId: "n", mode: "step" } })).toBe("Run this step (a test run from the editor)");
    expect(triggerDetailText({ ...PERSON_TRIGGER, test: true, testOf: { nodeId: "n", mode: "up-to" } })).toBe("Run up to here (a test run from the editor)");
    expect(triggerDetailText({ kind: "webhook", nodeId: "hook", test: true, request: "POST /hooks-test/x" })).toBe("Webhook: a test delivery, running the draft, POST /hooks-test/x");
  });

  it("names the dataset row an evaluation's run ran", () => {
    expect(triggerDetailText({ kind: "evaluation", nodeId: null, evaluation: { id: "e", row: 3 } })).toBe("Evaluation: row 3");
  });
});
