import type { Tool } from "../../tool";
import { RunCommandTool } from "./run-command";

export { RunCommandTool };

/** The tools that act on this machine: running shell commands. */
export function systemTools(): Tool[] {
  return [new RunCommandTool()];
}
