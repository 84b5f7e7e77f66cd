/**
 * Parses a unified diff (as the write tools put in an approval's preview)
 * into files, hunks and lines with their numbers, for the diff viewer.
 * Text that is not a diff (a note such as "the change is too large to
 * show") comes back as `null`, so the caller shows it as it is.
 */

export type DiffLineKind = "added" | "removed" | "context" | "note";

export interface DiffLine {
  kind: DiffLineKind;
  /** The line without its +, - or space prefix. */
  text: string;
  /** Its number in the old file (removed and context lines). */
  oldNumber: number | null;
  /** Its number in the new file (added and context lines). */
  newNumber: number | null;
}

export interface DiffHunk {
  /** The `@@ -a,b +c,d @@` line. */
  header: string;
  lines: DiffLine[];
}

export interface DiffFile {
  /** The old path; null for a new file (`/dev/null`). */
  oldPath: string | null;
  /** The new path; null for a deleted file. */
  newPath: string | null;
  hunks: DiffHunk[];
  added: number;
  removed: number;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

export function parseUnifiedDiff(text: string): DiffFile[] | null {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  // A trailing newline leaves one empty string that is not a line of the diff.
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const files: DiffFile[] = [];
  let file: DiffFile | null = null;
  let hunk: DiffHunk | null = null;
  let oldLine = 0;
  let newLine = 0;

  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    const next = lines[index + 1];
    if (line.startsWith("--- ") && next?.startsWith("+++ ")) {
      file = { oldPath: pathOf(line.slice(4)), newPath: pathOf(next.slice(4)), hunks: [], added: 0, removed: 0 };
      files.push(file);
      hunk = null;
      index += 1;
      continue;
    }
    const header = HUNK_HEADER.exec(line);
    if (header) {
      if (!file) {
        file = { oldPath: null, newPath: null, hunks: [], added: 0, removed: 0 };
        files.push(file);
      }
      hunk = { header: line, lines: [] };
      file.hunks.push(hunk);
      oldLine = Number(header[1]);
      newLine = Number(header[3]);
      continue;
    }
    if (!hunk || !file) {
      // Headers such as "Index:", "===" or "diff --git" before the first file: not shown.
      if (/^(Index: |={3,}|diff |new file mode|deleted file mode|index )/.test(line)) continue;
      if (files.length === 0) return null;
      continue;
    }
    if (line.startsWith("+")) {
      hunk.lines.push({ kind: "added", text: line.slice(1), oldNumber: null, newNumber: newLine++ });
      file.added += 1;
    } else if (line.startsWith("-")) {
      hunk.lines.push({ kind: "removed", text: line.slice(1), oldNumber: oldLine++, newNumber: null });
      file.removed += 1;
    } else if (line.startsWith("\\")) {
      hunk.lines.push({ kind: "note", text: line.slice(1).trim(), oldNumber: null, newNumber: null });
    } else if (line.startsWith(" ") || line === "") {
      hunk.lines.push({ kind: "context", text: line.slice(1), oldNumber: oldLine++, newNumber: newLine++ });
    } else {
      // Text after the diff (a truncation note): shown as a note, never as a change.
      hunk.lines.push({ kind: "note", text: line, oldNumber: null, newNumber: null });
    }
  }
  return files.length > 0 && files.some((each) => each.hunks.length > 0 || each.oldPath !== each.newPath) ? files : null;
}

/** The path of a `---`/`+++` header, without a timestamp or the git a/ b/ prefix; null for /dev/null. */
function pathOf(raw: string): string | null {
  const path = raw.split("\t")[0]!.trim();
  if (path === "/dev/null") return null;
  return path.replace(/^[ab]\//, "");
}
