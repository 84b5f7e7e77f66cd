import type { Tool } from "../../tool";
import { DataTool } from "./data-tool";

export { DataTool };

/** The tools that read data files: CSV, TSV, JSON, JSON Lines and SQLite. */
export function dataTools(): Tool[] {
  return [new DataTool()];
}
