import type { Tool } from "../../tool";
import { ApplyEditTool } from "./apply-edit";
import { ListDirTool } from "./list-dir";
import { ReadFileTool } from "./read-file";
import { SearchTool } from "./search";
import { WriteFileTool } from "./write-file";

export { ApplyEditTool, ListDirTool, ReadFileTool, SearchTool, WriteFileTool };
export type { DirectoryEntry } from "./list-dir";
export type { SearchMatch } from "./search";

/**
 * The filesystem tools, each confined to the folder in its `root` setting.
 *
 * @example
 *   filesystemTools().map((tool) => tool.name) // ["read_file", "write_file", "apply_edit", "list_dir", "search"]
 */
export function filesystemTools(): Tool[] {
  return [new ReadFileTool(), new WriteFileTool(), new ApplyEditTool(), new ListDirTool(), new SearchTool()];
}
