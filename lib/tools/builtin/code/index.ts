import type { Tool } from "../../tool";
import { RunJavaScriptTool } from "./run-javascript";

export { RunJavaScriptTool };

/** Tools that compute in the sandbox (lib/sandbox). */
export function codeTools(): Tool[] {
  return [new RunJavaScriptTool()];
}
