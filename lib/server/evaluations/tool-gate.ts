import type { ToolGated } from "@/lib/evaluations/approval-steps";
import type { ToolPool } from "@/lib/tools";

/**
 * Whether a tool node's calls go through the permission gate, as lib/tools/execute-tool.ts decides it for a call:
 * a destructive operation (a node naming none: any of the tool's), or any tool of an MCP server. A tool not
 * installed asks nothing: the run's checks refuse it before it starts.
 */
export function toolGate(pool: ToolPool): ToolGated {
  return (name, operation) => {
    const tool = pool.get(name);
    if (!tool) return false;
    return tool.origin === "mcp" || tool.isDestructive(operation ? { operation } : undefined);
  };
}
