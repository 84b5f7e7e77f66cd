import { stat } from "node:fs/promises";
import type { ApprovalPreview } from "../../permissions/approval-preview";
import { fileChangePreview, fileReplacePreview } from "../../permissions/file-change-preview";
import type { PermissionRequest } from "../../permissions/permission-request";
import type { ToolContext } from "../../tool-context";
import { ToolResult } from "../../tool-result";
import type { WorkingDirectorySettings } from "../shared/working-directory";
import { writeFileAtomic } from "./atomic-write";
import { decodeText, describeFileError, looksBinary, snapshotOf, type ExistingFile } from "./file-content";
import { FolderTool, type FolderToolHeader } from "./folder-tool";

/** A write worked out against the file: what a person approves, and what is written. */
export type WritePlan<Ready = object> = ReadyPlan<Ready> | { ok: false; error: string };
/**
 * `fingerprint`: what the file was when the plan was made (a digest of its content, or what else tells it apart; null
 * while it does not exist): the plan shown for approval is carried out only while the file's fingerprint is the same.
 * `existing` is the file as found and `after` the text it is to hold: the approval shows the one against the other.
 */
export type ReadyPlan<Ready = object> = { ok: true; relativePath: string; fingerprint: string | null; existing: ExistingFile; after: string } & Ready;

/**
 * A filesystem tool that writes one file, `path`, which a person may first approve (write_file, apply_edit). The
 * write is worked out against the file twice, for the approval and again before writing, and a file that changed in
 * between is refused: the framework hands describeAction() and call() the same arguments object, so the plan shown
 * is kept under it, and what was approved is what is written.
 */
export abstract class ApprovedWriteTool<Args extends { path: string }, Ready = object> extends FolderTool<Args> {
  readonly #whenChanged: { change: string; advice: string };
  private readonly shown = new WeakMap<object, WritePlan<Ready>>();

  /** `whenChanged`: what the tool was about to do ("the edit"), and what the model should do once the file changed under it. */
  constructor({ whenChanged, ...header }: FolderToolHeader<Args> & { whenChanged: { change: string; advice: string } }) {
    super(header);
    this.#whenChanged = whenChanged;
  }

  /** Works the write out against the file as it is now. */
  protected abstract plan(args: Args, ctx: ToolContext<WorkingDirectorySettings>): Promise<WritePlan<Ready>>;
  /** Writes the planned file and says what was done; what it throws is reported, with "Nothing was written." */
  protected abstract write(args: Args, plan: ReadyPlan<Ready>, ctx: ToolContext<WorkingDirectorySettings>): Promise<ToolResult>;

  override async describeAction(args: Args, ctx: ToolContext<WorkingDirectorySettings>): Promise<PermissionRequest[]> {
    const plan = await this.plan(args, ctx);
    this.shown.set(args, plan);
    // A write that cannot happen is not worth a person's attention; call() reports why.
    if (!plan.ok) return [];
    return [{ kind: "write", path: args.path, preview: previewOf(plan), edit: this.capabilities.includes("file.edit") }];
  }

  override async call(args: Args, ctx: ToolContext<WorkingDirectorySettings>): Promise<ToolResult> {
    const plan = await this.confirmedPlan(args, ctx);
    if (!plan.ok) return ToolResult.error(plan.error);
    try {
      return await this.write(args, plan, ctx);
    } catch (error) {
      return ToolResult.error(`${describeFileError(error, "path", plan.relativePath)} Nothing was written.`);
    }
  }

  /** Writes `content` to `args.path` atomically, and notes what the file now holds, as read_file does: the next edit is checked against it. */
  protected async writeAndNote(args: Args, content: Buffer, ctx: ToolContext<WorkingDirectorySettings>): Promise<void> {
    await writeFileAtomic(args.path, content);
    ctx.fileState.set(args.path, snapshotOf(content, await stat(args.path)));
  }

  /** The plan made now, unless the one shown could not apply or the file changed since it was shown. */
  private async confirmedPlan(args: Args, ctx: ToolContext<WorkingDirectorySettings>): Promise<WritePlan<Ready>> {
    const shown = this.shown.get(args);
    this.shown.delete(args);
    if (shown && !shown.ok) return shown;
    const plan = await this.plan(args, ctx);
    if (!plan.ok || !shown || shown.fingerprint === plan.fingerprint) return plan;
    const { change, advice } = this.#whenChanged;
    return { ok: false, error: `\`path\`: "${plan.relativePath}" changed while ${change} was waiting for approval, so nothing was written. ${advice}` };
  }
}

/** What a person approving the write reads: every changed line when both sides are text. */
function previewOf({ relativePath, existing, after }: ReadyPlan): ApprovalPreview {
  switch (existing.kind) {
    case "missing":
    case "directory":
    case "special":
      return fileChangePreview(relativePath, null, after);
    case "too-large":
      return fileReplacePreview(relativePath, "too-large", existing.size, after);
    case "file":
      return looksBinary(existing.bytes)
        ? fileReplacePreview(relativePath, "binary", existing.bytes.length, after)
        : fileChangePreview(relativePath, decodeText(existing.bytes), after);
  }
}
