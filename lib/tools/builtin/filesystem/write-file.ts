import { stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { relativeToRoot } from "../../confinement";
import type { ToolContext } from "../../tool-context";
import { ToolResult } from "../../tool-result";
import type { WorkingDirectorySettings } from "../shared/working-directory";
import { ApprovedWriteTool, type ReadyPlan, type WritePlan } from "./approved-write-tool";
import { ensureParentFolder } from "./atomic-write";
import { describeFileError, errorCode, identityOf, readExisting, rootOf, specialFileError } from "./file-content";

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

/** Creates or overwrites a file with the given content, atomically. */
export class WriteFileTool extends ApprovedWriteTool<WriteFileArgs> {
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

  protected async write(args: WriteFileArgs, { relativePath, existing }: ReadyPlan, ctx: ToolContext<WorkingDirectorySettings>): Promise<ToolResult> {
    if (args.createDirectories) await ensureParentFolder(args.path);
    const written = Buffer.from(args.content, "utf8");
    await this.writeAndNote(args, written, ctx);
    const previousSize = existing.kind === "file" ? existing.bytes.length : existing.kind === "too-large" ? existing.size : null;
    const text =
      previousSize === null
        ? `Created ${relativePath} (${written.length} bytes written).`
        : `Overwrote ${relativePath} (${written.length} bytes written; it held ${previousSize} bytes before).`;
    return ToolResult.ok(text, { path: relativePath, created: previousSize === null, bytes: written.length });
  }

  protected async plan(args: WriteFileArgs, ctx: ToolContext<WorkingDirectorySettings>): Promise<WritePlan> {
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
      return { ok: true, relativePath, fingerprint: identityOf(existing), existing, after: args.content };
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
