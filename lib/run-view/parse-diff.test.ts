import { describe, expect, it } from "vitest";
import { parseUnifiedDiff } from "./parse-diff";

describe("parseUnifiedDiff", () => {
  it("parses a new file", () => {
    const files = parseUnifiedDiff("--- /dev/null\n+++ notes.md\n@@ -0,0 +1,2 @@\n+hello\n+world\n\\ No newline at end of file\n");
    expect(files).toHaveLength(1);
    const [file] = files!;
    expect(file).toMatchObject({ oldPath: null, newPath: "notes.md", added: 2, removed: 0 });
    expect(file!.hunks[0]!.lines).toEqual([
      { kind: "added", text: "hello", oldNumber: null, newNumber: 1 },
      { kind: "added", text: "world", oldNumber: null, newNumber: 2 },
      { kind: "note", text: "No newline at end of file", oldNumber: null, newNumber: null },
    ]);
  });

  it("numbers context, removed and added lines of a change", () => {
    const files = parseUnifiedDiff("--- a.txt\n+++ a.txt\n@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four\n");
    const lines = files![0]!.hunks[0]!.lines;
    expect(lines.map((line) => [line.kind, line.text, line.oldNumber, line.newNumber])).toEqual([
      ["context", "one", 1, 1],
      ["removed", "two", 2, null],
      ["added", "2", null, 2],
      ["context", "three", 3, 3],
      ["added", "four", null, 4],
    ]);
    expect(files![0]).toMatchObject({ oldPath: "a.txt", newPath: "a.txt", added: 2, removed: 1 });
  });

  it("handles several hunks, git prefixes, timestamps and Index headers", () => {
    const text = [
      "Index: src/a.ts",
      "===================================================================",
      "--- a/src/a.ts\t2025-01-01",
      "+++ b/src/a.ts\t2025-01-02",
      "@@ -1 +1 @@",
      "-old",
      "+new",
      "@@ -10,2 +10,2 @@",
      " same",
      "-x",
      "+y",
    ].join("\n");
    const [file] = parseUnifiedDiff(text)!;
    expect(file!.newPath).toBe("src/a.ts");
    expect(file!.hunks).toHaveLength(2);
    expect(file!.hunks[1]!.lines[0]).toMatchObject({ kind: "context", oldNumber: 10, newNumber: 10 });
  });

  it("returns null for text that is not a diff", () => {
    expect(parseUnifiedDiff("big.bin: the change is too large to show as a diff (3 lines before, 9 lines after).")).toBeNull();
    expect(parseUnifiedDiff("Replace the binary file logo.png (2 KB) with 10 B of text.")).toBeNull();
    expect(parseUnifiedDiff("")).toBeNull();
  });

  it("keeps a truncation note inside a hunk as a note, not a change", () => {
    const [file] = parseUnifiedDiff("--- a\n+++ a\n@@ -1,2 +1,2 @@\n-a\n… 4,000 characters cut …\n+b\n")!;
    expect(file!.hunks[0]!.lines.map((line) => line.kind)).toEqual(["removed", "note", "added"]);
    expect(file).toMatchObject({ added: 1, removed: 1 });
  });
});
