import { structuredPatch } from "diff";
import type { DiffLine, DiffRow, FileChangePreview, FileReplacePreview } from "./approval-preview";
import { FILE_LINE_MARKING } from "./file-line-marking";
import { hasHiddenCharacters } from "./visible-text";

/**
 * Most rows an approval stores. A larger change keeps its head and tail and
 * one `omitted` row in between that counts what was left out; the totals
 * always count every line.
 */
export const MAX_PREVIEW_ROWS = 4_000;
/** Left-out lines holding hidden characters are kept up to this many, so they are flagged even when folded. */
const MAX_FLAGGED_LINES = 200;

// Diffing two large, very different texts is quadratic; past this the preview says so instead.
const DIFF_TIMEOUT_MS = 1_000;

const NO_NEWLINE = "\\ No newline at end of file";

/**
 * The change from `before` (null: a new file) to `after`, as typed rows with
 * true counts. The rows come from the diff library's structured hunks, never
 * from diff text, so file content that looks like a header stays content.
 *
 * @example
 *   fileChangePreview("notes.md", "a\n", "b\n")
 *   // { kind: "file-change", path: "notes.md", change: "modify", added: 1, removed: 1, rows: [removed "a", added "b"] }
 */
export function fileChangePreview(
  path: string,
  before: string | null,
  after: string,
  maxRows = MAX_PREVIEW_ROWS,
): FileChangePreview | FileReplacePreview {
  const patch = structuredPatch(path, path, before ?? "", after, undefined, undefined, { context: 3, timeout: DIFF_TIMEOUT_MS });
  if (patch === undefined) {
    return {
      kind: "file-replace",
      path,
      reason: "too-different",
      beforeBytes: before === null ? null : Buffer.byteLength(before, "utf8"),
      afterBytes: Buffer.byteLength(after, "utf8"),
      beforeLines: before === null ? null : countLines(before),
      afterLines: countLines(after),
    };
  }
  const rows: DiffRow[] = [];
  let added = 0;
  let removed = 0;
  let nextOldLine = 1;
  for (const hunk of patch.hunks) {
    // Structured hunks number lines from 1 even when a side is empty; unchanged lines before a hunk are not shown.
    if (hunk.oldStart > nextOldLine) rows.push({ kind: "skipped", lines: hunk.oldStart - nextOldLine });
    let oldNumber = hunk.oldStart;
    let newNumber = hunk.newStart;
    for (const line of hunk.lines) {
      if (line === NO_NEWLINE) {
        rows.push({ kind: "note", text: "No newline at end of file" });
        continue;
      }
      // Each structured line carries exactly one sign character; the rest is the file's text, whatever it holds.
      const sign = line[0];
      const text = line.slice(1);
      if (sign === "+") {
        rows.push({ kind: "added", text, oldNumber: null, newNumber: newNumber++ });
        added++;
      } else if (sign === "-") {
        rows.push({ kind: "removed", text, oldNumber: oldNumber++, newNumber: null });
        removed++;
      } else {
        rows.push({ kind: "context", text, oldNumber: oldNumber++, newNumber: newNumber++ });
      }
    }
    nextOldLine = oldNumber;
  }
  const oldTotal = before === null ? 0 : countLines(before);
  if (patch.hunks.length > 0 && oldTotal >= nextOldLine) rows.push({ kind: "skipped", lines: oldTotal - nextOldLine + 1 });
  return { kind: "file-change", path, change: before === null ? "create" : "modify", added, removed, rows: foldRows(rows, maxRows) };
}

/** Wraps a replacement that cannot be compared line by line. */
export function fileReplacePreview(
  path: string,
  reason: "binary" | "too-large",
  beforeBytes: number | null,
  afterText: string,
): FileReplacePreview {
  return {
    kind: "file-replace",
    path,
    reason,
    beforeBytes,
    afterBytes: Buffer.byteLength(afterText, "utf8"),
    beforeLines: null,
    afterLines: countLines(afterText),
  };
}

/** Keeps the head and the tail of `rows`; what is left out becomes one counted `omitted` row. */
function foldRows(rows: DiffRow[], maxRows: number): DiffRow[] {
  if (rows.length <= maxRows) return rows;
  const keep = Math.floor((maxRows - 1) / 2);
  const middle = rows.slice(keep, rows.length - keep);
  const lines = middle.filter((row): row is DiffLine => row.kind === "added" || row.kind === "removed" || row.kind === "context");
  const omitted: DiffRow = {
    kind: "omitted",
    lines: lines.length,
    added: lines.filter((line) => line.kind === "added").length,
    removed: lines.filter((line) => line.kind === "removed").length,
    flagged: lines.filter((line) => hasHiddenCharacters(line.text, FILE_LINE_MARKING)).slice(0, MAX_FLAGGED_LINES),
  };
  return [...rows.slice(0, keep), omitted, ...rows.slice(rows.length - keep)];
}

function countLines(text: string): number {
  if (text === "") return 0;
  const lines = text.split("\n").length;
  return text.endsWith("\n") ? lines - 1 : lines;
}
