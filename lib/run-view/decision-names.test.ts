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

  it("name the run, so two runs of one workflow waiting at one step have different buttons", () => {
    const write: ApprovalPreview = { kind: "file-change", path: "a.txt", change: "create", added: 1, removed: 0, rows: [] };
    const first = decisionButtonName("Approve once", "Write a File", write, "cmrun0000000000000K8R1T6");
    const second = decisionButtonName("Approve once", "Write a File", write, "cmrun0000000000000Q2W9Z4");
    expect(first).toBe("Approve once: Write a File, create a.txt, run #K8R1T6");
    expect(second).not.toBe(first);
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
