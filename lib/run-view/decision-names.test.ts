import { describe, expect, it } from "vitest";
import type { ApprovalPreview } from "@/lib/tools/contracts";
import { decisionButtonName, effectInWords } from "./decision-names";

describe("decision button names", () => {
  it("start with the visible words, then name the step and what it would do", () => {
    const write: ApprovalPreview = { kind: "file-change", path: "notes/today.md", change: "modify", added: 1, removed: 0, rows: [] };
    expect(decisionButtonName("Approve once", "Write the note", write)).toBe("Approve once: Write the note, change notes/today.md");
    expect(decisionButtonName("Deny", "Tests", { kind: "command", command: "npm   test\n", workingFolder: ".", background: false })).toBe("Deny: Tests, run npm test");
    expect(decisionButtonName("Approve", "Plan", { kind: "text", text: "the plan" })).toBe("Approve: Plan");
  });

  it("cut long effects and show hidden characters as marks, never as themselves", () => {
    const long = effectInWords({ kind: "request", method: "POST", url: `https://example.com/${"a".repeat(200)}`, headers: [], body: null })!;
    expect(long.length).toBeLessThanOrEqual(85);
    expect(long.endsWith("…")).toBe(true);
    const bidi = effectInWords({ kind: "command", command: "echo \u202Eevil", workingFolder: ".", background: false })!;
    expect(bidi).not.toContain("\u202E");
    expect(bidi).toContain("U+202E");
  });
});
