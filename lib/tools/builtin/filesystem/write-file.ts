import { stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { relativeToRoot } from "../../confinement";
import type { ApprovalPreview } from "../../permissions/approval-preview";
import { fileChangePreview, fileReplacePreview } from "../../permissions/file-change-preview";
import type { ToolContext } from "../../tool-context";
import { ToolResult } from "../../tool-result";
import type { WorkingDirectorySettings } from "../shared/working-directory";
import { ApprovedWriteTool, type ReadyPlan, type WritePlan } from "./approved-write-tool";
import { ensureParentFolder, writeFileAtomic } from "./atomic-write";
import {
  decodeText,
  describeFileError,
  errorCode,
  identityOf,
  looksBinary,
  readExisting,
  rootOf,
  snapshotOf,
  specialFileError,
  type ExistingFile,
} from "./file-content";

const WriteFileArgs = z.object({
  path: z
    .string()
    .min(1, "give the path of the file to write")
    .describe('The file to create or overwrite, relative to the working folder (e.g. "reports/summary.md").'),
  content: z.string().describe("The complete new content of the file. It replaces whatever the file held."),
  createDirectories: z
    .boolean()
    .default(true)
    .describe("Create any missing folders on the way to the file. Turn this off to stop with an error instead when the folder does not exist."),
});
type WriteFileArgs = z.infer<typeof WriteFileArgs>;

/** The target as found before writing: checked for the approval, and again before writing. */
type TargetFound = { existing: ExistingFile };
type WriteTarget = WritePlan<TargetFound>;

/** Creates or overwrites a file with the given content, atomically. */
export class WriteFileTool extends ApprovedWriteTool<WriteFileArgs, TargetFound> {
  constructor() {
    super({
      name: "write_file",
      title: "Write a File",
      icon: "file-pen",
      description:
        "Create a file in the working folder, or replace a file's whole content. Missing folders are created. " +
        "To change part of an existing file, use apply_edit instead.",
      inputModel: WriteFileArgs,
      capabilities: ["file.write"],
      progressVerb: "Writing",
      whenChanged: { change: "the write", advice: "Read it again and decide whether to write it." },
    });
  }

  protected preview(args: WriteFileArgs, target: ReadyPlan<TargetFound>): ApprovalPreview {
    return previewOf(target.relativePath, target.existing, args.content);
  }

  protected async write(args: WriteFileArgs, { relativePath, existing }: ReadyPlan<TargetFound>, ctx: ToolContext<WorkingDirectorySettings>): Promise<ToolResult> {
    if (args.createDirectories) await ensureParentFolder(args.path);
    await writeFileAtomic(args.path, args.content);
    const written = Buffer.from(args.content, "utf8");
    ctx.fileState.set(args.path, snapshotOf(written, await stat(args.path)));
    const previousSize = existing.kind === "file" ? existing.bytes.length : existing.kind === "too-large" ? existing.size : null;
    const text =
      previousSize === null
        ? `Created ${relativePath} (${written.length} bytes written).`
        : `Overwrote ${relativePath} (${written.length} bytes written; it held ${previousSize} bytes before).`;
    return ToolResult.ok(text, { path: relativePath, created: previousSize === null, bytes: written.length });
  }

  protected async plan(args: WriteFileArgs, ctx: ToolContext<WorkingDirectorySettings>): Promise<WriteTarget> {
    const relativePath = relativeToRoot(rootOf(ctx), args.path);
    try {
      const existing = await readExisting(args.path);
      if (existing.kind === "directory") {
        const example = relativePath === "." ? "notes.md" : `${relativePath}/notes.md`;
        return { ok: false, error: `\`path\`: "${relativePath}" is a folder. Give the path of a file, e.g. "${example}".` };
      }
      if (existing.kind === "special") return { ok: false, error: specialFileError("path", relativePath) };
      if (existing.kind === "missing") {
        const problem = await this.folderProblem(args, relativePath);
        if (problem) return { ok: false, error: problem };
      }
      return { ok: true, relativePath, fingerprint: identityOf(existing), existing };
    } catch (error) {
      return { ok: false, error: describeFileError(error, "path", relativePath) };
    }
  }

  /** Why the file's folder is not usable, or null. */
  private async folderProblem(args: WriteFileArgs, relativePath: string): Promise<string | null> {
    const folder = path.posix.dirname(relativePath);
    try {
      const stats = await stat(path.dirname(args.path));
      if (!stats.isDirectory()) return `\`path\`: "${folder}" is a file, so "${relativePath}" cannot be created inside it.`;
      return null;
    } catch (error) {
      if (errorCode(error) !== "ENOENT" && errorCode(error) !== "ENOTDIR") throw error;
      if (args.createDirectories) return null;
      return `\`path\`: the folder "${folder}" does not exist. Set createDirectories to true to create it, or write somewhere else.`;
    }
  }
}

/** What a person approving the write reads: every changed line when both sides are text. */
function previewOf(relativePath: string, existing: ExistingFile, content: string): ApprovalPreview {
  switch (existing.kind) {
    case "missing":
    case "directory":
    case "special":
      return fileChangePreview(relativePath, null, content);
    case "too-large":
      return fileReplacePreview(relativePath, "too-large", existing.size, content);
    case "file":
      return looksBinary(existing.bytes)
        ? fileReplacePreview(relativePath, "binary", existing.bytes.length, content)
        : fileChangePreview(relativePath, decodeText(existing.bytes), content);
  }
}
