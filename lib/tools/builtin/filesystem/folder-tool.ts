import type { Capability } from "../../registry/capabilities";
import type { ToolRuntime } from "../../tool";
import { CoreTool, type ToolIdentity } from "../shared/core-tool";
import { WorkingDirectory, type WorkingDirectorySettings } from "../shared/working-directory";
import { displayName } from "./file-content";

/** What a filesystem tool says of itself; the folder it works in is FolderTool's. */
export type FolderToolHeader<Args> = ToolIdentity<Args> & { capabilities: readonly Capability[]; runtime?: ToolRuntime; progressVerb?: string };

/** The capabilities that only look at the folder. */
const LOOKING: ReadonlySet<Capability> = new Set(["file.read", "file.list", "file.search"]);

/**
 * A filesystem tool: it works in the folder of its `root` setting, and its `path` input is resolved under that
 * folder and refused outside it (the framework confines it before `call()` runs).
 */
export abstract class FolderTool<Args extends { path: string }> extends CoreTool<Args, WorkingDirectorySettings> {
  readonly #progressVerb: string | undefined;

  /** `progressVerb` makes the status line "Reading notes.md…"; without it the tool says its own (progressMessage). */
  constructor({ progressVerb, ...header }: FolderToolHeader<Args>) {
    super({ ...header, domain: "filesystem", settingsModel: WorkingDirectory, rootSetting: "root", pathInputs: ["path"] });
    this.#progressVerb = progressVerb;
  }

  override progressMessage(args: Args): string {
    return this.#progressVerb === undefined ? super.progressMessage(args) : `${this.#progressVerb} ${displayName(args.path)}…`;
  }

  /** Read-only (no permission gate, safe beside other calls) when all it declares is looking; a tag that writes, or an unknown one, is not. */
  override isReadOnly(): boolean {
    return this.capabilities.length > 0 && this.capabilities.every((capability) => LOOKING.has(capability));
  }
}
