import { CoreTool } from "../shared/core-tool";
import { WorkingDirectory, type WorkingDirectorySettings } from "../shared/working-directory";

/**
 * A filesystem tool: it works in the folder of its `root` setting, and its `path` input is resolved under that
 * folder and refused outside it (the framework confines it before `call()` runs).
 */
export abstract class FolderTool<Args> extends CoreTool<Args, WorkingDirectorySettings> {
  override readonly domain = "filesystem";
  override readonly settingsModel = WorkingDirectory;
  override readonly rootSetting = "root";
  override readonly pathInputs: readonly string[] = ["path"];
}
