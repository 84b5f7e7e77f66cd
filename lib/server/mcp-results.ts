import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** A tool call's failure as MCP returns it to the model: text it can read and act on, flagged as an error. */
export function mcpErrorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
