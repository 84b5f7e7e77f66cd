import type { Capability } from "../../registry/capabilities";
import { CoreTool } from "../shared/core-tool";
import { WorkingDirectory, type WorkingDirectorySettings } from "../shared/working-directory";

/** The capabilities that only look at the folder. */
const LOOKING: ReadonlySet<Capability> = new Set(["file.read", "file.list", "file.search"]);

/**
 * A filesystem tool: it works in the folder of its `root` setting, and its `path` input is resolved under that
 * folder and refused outside it (the framework confines it before `call()` runs).
 */
export abstract class FolderTool<Args> extends CoreTool<Args, WorkingDirectorySettings> {
  override readonly domain = "filesystem";
  override readonly settingsModel = WorkingDirectory;
  override readonly rootSetting = "root";
  override readonly pathInputs: readonly string[] = ["path"];

  /** Read-only (no permission gate, safe beside other calls) when all it declares is looking; a tag that writes, or an unknown one, is not. */
  override isReadOnly(): boolean {
    return this.capabilities.length > 0 && this.capabilities.every((capability) => LOOKING.has(capability));
  }
}
