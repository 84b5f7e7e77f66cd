import { describe, expect, it } from "vitest";
import { approvalMail } from "./approval-notifications";
import { sampleApproval } from "./testing/approval-detail";

const approval = sampleApproval;

const deciders = [
  { id: "abe", login: "abe@example.test", displayName: "Abe" },
  { id: "ada", login: "ada@example.test", displayName: "Ada" },
];

describe("approvalMail", () => {
  it("says what waits, who else may decide, the deadline and a link that only opens the card", () => {
    const { subject, text } = approvalMail(approval(), "abe", deciders, "https://studio.example.test/");
    expect(subject).toBe("Deploy: Clean up wants to run a command");
    expect(text).toContain("rm -rf build");
    expect(text).toContain("Others who may decide: Ada.");
    expect(text).toContain("It needs 2 different people to approve (0 so far).");
    expect(text).toContain("Deadline: 2026-12-04T10:30:00.000Z (UTC); then it is denied.");
    expect(text).toContain("https://studio.example.test/inbox?approval=appr_1");
    expect(text).not.toMatch(/decision=|approve=/);
  });

  it("cuts a long preview where the card's first screen ends, and keeps the subject on one line", () => {
    const preview = Array.from({ length: 500 }, (_, index) => `line ${index}`).join("\n");
    const { subject, text } = approvalMail(approval({ preview, nodeLabel: "Evil\r\nBcc: someone@example.test" }), "abe", deciders, "http://127.0.0.1:3000");
    expect(subject).not.toMatch(/[\r\n]/);
    expect(text).toContain("line 39\n… (more on the card)");
    expect(text).not.toContain("line 40");
  });
});
