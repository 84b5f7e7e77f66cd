import type { ApprovalPreview, DiffLine, DiffRow } from "./approval-preview";
import { FILE_LINE_MARKING } from "./file-line-marking";
import { toVisibleString } from "./visible-text";

const SIGN: Record<DiffLine["kind"], string> = { added: "+", removed: "-", context: " " };

/**
 * A preview as plain text, every hidden character marked: the terminal prompt
 * and hosts without a card read this. Built from the data, never parsed back.
 *
 * @example
 *   previewText({ kind: "command", command: "ls\u202E", workingFolder: ".", folder: "/srv/reports", background: false }) // "$ ls⟨U+202E⟩\n(in /srv/reports)"
 */
export function previewText(preview: ApprovalPreview): string {
  switch (preview.kind) {
    case "file-change": {
      const status = preview.change === "create" ? " (new file)" : "";
      const counts = preview.added === 0 && preview.removed === 0 ? "no change" : `+${preview.added} −${preview.removed}`;
      const header = `${toVisibleString(preview.path)}${status}: ${counts}`;
      return [header, ...rootLine(preview.root), ...preview.rows.flatMap(rowText)].join("\n");
    }
    case "file-replace": {
      const reason = { binary: "a binary file", "too-large": "too large to compare", "too-different": "too different to compare in time" }[preview.reason];
      const before = preview.beforeBytes === null ? "a new file" : `${preview.beforeBytes} bytes${preview.beforeLines === null ? "" : `, ${preview.beforeLines} lines`}`;
      const after = `${preview.afterBytes} bytes${preview.afterLines === null ? "" : `, ${preview.afterLines} lines`}`;
      return [`Replace ${toVisibleString(preview.path)} (${reason}): ${before} before, ${after} after.`, ...rootLine(preview.root)].join("\n");
    }
    case "command": {
      const where =
        preview.folder !== undefined ? `in ${toVisibleString(preview.folder)}` : preview.workingFolder === "." ? "in the step's folder" : `in ${toVisibleString(preview.workingFolder)}`;
      return `$ ${toVisibleString(preview.command)}\n(${where}${preview.background ? ", as a background job" : ""})`;
    }
    case "request": {
      const headers = preview.headers.map((header) => `${toVisibleString(header.name)}: ${toVisibleString(header.value)}`);
      const body = preview.body === null ? [] : ["", toVisibleString(preview.body)];
      return [`${preview.method} ${toVisibleString(preview.url)}`, ...headers, ...body].join("\n");
    }
    case "tool-call":
      return `${toVisibleString(preview.tool)} ${toVisibleString(preview.argumentsText)}`;
    case "text":
      return toVisibleString(preview.text, FILE_LINE_MARKING);
  }
}

/** Which folder a file's path is in: a person must know which `reports/` a write lands in. */
function rootLine(root: string | undefined): string[] {
  return root === undefined ? [] : [`(in ${toVisibleString(root)})`];
}

function rowText(row: DiffRow): string[] {
  switch (row.kind) {
    case "added":
    case "removed":
    case "context":
      return [lineText(row)];
    case "skipped":
      return [`  … ${row.lines} unchanged line${row.lines === 1 ? "" : "s"} …`];
    case "note":
      return [`  (${row.text})`];
    case "omitted": {
      const flagged = row.flagged.length > 0 ? `; ${row.flagged.length} of them hold hidden characters:` : "";
      return [`  … ${row.lines} lines not shown (+${row.added} −${row.removed})${flagged}`, ...row.flagged.map(lineText)];
    }
  }
}

function lineText(line: DiffLine): string {
  return `${SIGN[line.kind]}${toVisibleString(line.text, FILE_LINE_MARKING)}`;
}
