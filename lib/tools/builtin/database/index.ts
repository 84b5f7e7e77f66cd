import type { Tool } from "../../tool";
import { SqlTool } from "./sql/sql-tool";

export { SqlTool };

/** The tools that read databases. */
export function databaseTools(): Tool[] {
  return [new SqlTool()];
}
