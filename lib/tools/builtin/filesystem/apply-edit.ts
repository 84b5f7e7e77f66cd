import { z } from "zod";
import { relativeToRoot } from "../../confinement";
import type { ToolContext } from "../../tool-context";
import { ToolResult } from "../../tool-result";
import type { WorkingDirectorySettings } from "../shared/working-directory";
import { ApprovedWriteTool, type ReadyPlan, type WritePlan } from "./approved-write-tool";
import { decodeText, describeFileError, formatBytes, looksBinary, MAX_FILE_BYTES, readExisting, rootOf, sha256, specialFileError } from "./file-content";
import { unifiedDiff } from "./unified-diff";

/** How much of the diff the model gets back to confirm the edit. */
const RESULT_DIFF_CHARACTERS = 4_000;

const Edit = z.object({
  oldText: z
    .string()
    .min(1, "give the exact text to replace; to create a file use write_file")
    .describe(
      "The exact text to replace, copied from the file with its whitespace and indentation. Include enough surrounding lines that it occurs only once.",
    ),
  newText: z.string().describe("The text to put in its place. Empty deletes oldText."),
  replaceAll: z
    .boolean()
    .default(false)
    .describe("Replace every occurrence of oldText instead of requiring exactly one (e.g. to rename a variable)."),
});

const ApplyEditArgs = z.object({
  path: z.string().min(1, "give the path of the file to edit").describe('The file to change, relative to the working folder (e.g. "src/app.ts").'),
  edits: z
    .array(Edit)
    .min(1, "give at least one edit")
    .describe("The replacements, applied in order, each to the result of the ones before. Either all apply or nothing is written."),
});
type ApplyEditArgs = z.infer<typeof ApplyEditArgs>;
type Edit = z.infer<typeof Edit>;

/** The edit as worked out against the file (`after`, its text once edited): checked for the approval, and again before writing. */
type EditReady = { before: string; replacements: number; byteOrderMark: boolean };
type EditPlan = WritePlan<EditReady>;

/** Replaces exact pieces of text in a file, all or nothing, refusing a file that changed since it was read. */
export class ApplyEditTool extends ApprovedWriteTool<ApplyEditArgs, EditReady> {
  constructor() {
    super({
      name: "apply_edit",
      title: "Edit a File",
      icon: "file-diff",
      description:
        "Change part of an existing text file by replacing exact text: each edit's oldText must occur exactly once (or set replaceAll). " +
        "Several edits are applied in order and written together, or not at all. Read the file with read_file first; " +
        "if it changed since, read it again. To create a file or replace all of it, use write_file.",
      inputModel: ApplyEditArgs,
      capabilities: ["file.edit"],
      progressVerb: "Editing",
      whenChanged: { change: "the edit", advice: "Read it again with read_file and redo the edit." },
    });
  }

  protected async write(args: ApplyEditArgs, plan: ReadyPlan<EditReady>, ctx: ToolContext<WorkingDirectorySettings>): Promise<ToolResult> {
    // decodeText() dropped the byte-order mark; a file that had one keeps it.
    await this.writeAndNote(args, Buffer.from(plan.byteOrderMark ? `\uFEFF${plan.after}` : plan.after, "utf8"), ctx);
    const count = args.edits.length;
    const diff = unifiedDiff(plan.relativePath, plan.before, plan.after, RESULT_DIFF_CHARACTERS);
    return ToolResult.ok(
      `Edited ${plan.relativePath}: ${count} edit${count === 1 ? "" : "s"}, ${plan.replacements} replacement${plan.replacements === 1 ? "" : "s"}.\n${diff}`,
      { path: plan.relativePath, edits: count, replacements: plan.replacements, diff },
    );
  }

  protected async plan(args: ApplyEditArgs, ctx: ToolContext<WorkingDirectorySettings>): Promise<EditPlan> {
    const relativePath = relativeToRoot(rootOf(ctx), args.path);
    let existing;
    try {
      existing = await readExisting(args.path);
    } catch (error) {
      return { ok: false, error: describeFileError(error, "path", relativePath) };
    }
    switch (existing.kind) {
      case "missing":
        return { ok: false, error: `\`path\`: "${relativePath}" does not exist. To create a file, use write_file.` };
      case "directory":
        return { ok: false, error: `\`path\`: "${relativePath}" is a folder, not a file. Use list_dir to find the file to edit.` };
      case "special":
        return { ok: false, error: specialFileError("path", relativePath) };
      case "too-large":
        return {
          ok: false,
          error: `\`path\`: "${relativePath}" is ${formatBytes(existing.size)}, more than the ${formatBytes(MAX_FILE_BYTES)} this tool edits.`,
        };
      case "file":
        break;
    }
    if (looksBinary(existing.bytes)) {
      return { ok: false, error: `\`path\`: "${relativePath}" is a binary file; apply_edit only changes text files.` };
    }
    const hash = sha256(existing.bytes);
    const snapshot = ctx.fileState.get(args.path);
    // Only the content counts: a touched but unchanged file is not stale.
    if (snapshot && snapshot.hash !== hash) {
      return {
        ok: false,
        error: `\`path\`: "${relativePath}" changed since you last read it (by someone or something else). Read it again with read_file, then redo the edit. Nothing was written.`,
      };
    }
    const before = decodeText(existing.bytes);
    const applied = applyEdits(before, args.edits, relativePath);
    if (!applied.ok) return applied;
    const byteOrderMark = existing.bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]));
    // The content's digest: a touched but unchanged file is still the one approved.
    return { ok: true, relativePath, fingerprint: hash, existing, before, after: applied.text, replacements: applied.replacements, byteOrderMark };
  }
}

/**
 * Applies `edits` in order to `text`, in memory. The first edit that does not
 * apply stops everything, with a message naming it.
 */
export function applyEdits(
  text: string,
  edits: readonly Edit[],
  relativePath: string,
): { ok: true; text: string; replacements: number } | { ok: false; error: string } {
  let current = text;
  let replacements = 0;
  const usesCrLf = text.includes("\r\n");
  for (const [index, edit] of edits.entries()) {
    const field = `edits[${index}]`;
    if (edit.oldText === edit.newText) {
      return { ok: false, error: `\`${field}\`: oldText and newText are the same, so this edit changes nothing. Remove it or fix newText. Nothing was written.` };
    }
    let { oldText, newText } = edit;
    // Models write "\n"; a Windows file has "\r\n". Match it the way the file writes lines.
    if (usesCrLf && !current.includes(oldText) && oldText.includes("\n") && !oldText.includes("\r\n")) {
      const crLf = (value: string) => value.replace(/\r?\n/g, "\r\n");
      if (current.includes(crLf(oldText))) {
        oldText = crLf(oldText);
        newText = crLf(newText);
      }
    }
    const positions = occurrences(current, oldText);
    const after = index > 0 ? " (after the edits before it were applied)" : "";
    if (positions.length === 0) {
      const hint = collapseWhitespace(current).includes(collapseWhitespace(oldText))
        ? " A text that differs only in whitespace or indentation is there: copy it exactly."
        : " It must match the file exactly, including whitespace and indentation: read the file again and copy the text.";
      return { ok: false, error: `\`${field}.oldText\`: not found in "${relativePath}"${after}.${hint} Nothing was written.` };
    }
    if (positions.length > 1 && !edit.replaceAll) {
      const lines = positions.slice(0, 5).map((position) => lineAt(current, position));
      const more = positions.length > 5 ? ", …" : "";
      return {
        ok: false,
        error:
          `\`${field}.oldText\`: found ${positions.length} times in "${relativePath}"${after} (lines ${lines.join(", ")}${more}). ` +
          `Include more surrounding lines so it matches once, or set ${field}.replaceAll to true to replace every one. Nothing was written.`,
      };
    }
    // Slicing, not String.replace: newText may contain "$&" and similar patterns.
    current = current.split(oldText).join(newText);
    replacements += positions.length;
  }
  return { ok: true, text: current, replacements };
}

/** Start offsets of the non-overlapping occurrences of `needle`, as split() would find them. */
function occurrences(haystack: string, needle: string): number[] {
  const positions: number[] = [];
  for (let from = haystack.indexOf(needle); from !== -1; from = haystack.indexOf(needle, from + needle.length)) {
    positions.push(from);
  }
  return positions;
}

function lineAt(text: string, position: number): number {
  let line = 1;
  for (let index = text.indexOf("\n"); index !== -1 && index < position; index = text.indexOf("\n", index + 1)) line++;
  return line;
}

function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
