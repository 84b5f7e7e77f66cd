import type { Tool, ToolPool } from "@/lib/tools";
import type { WorkflowDefinition } from "@/lib/workflow/definition";
import type { ToolNode } from "./definition";

/** The MCP server a tool comes from, or null for a tool of the studio itself. */
export function mcpServerOf(tool: Tool): string | null {
  return tool.origin === "mcp" ? tool.server : null;
}

/**
 * Records on every MCP tool node the server its tool resolves to now, so a
 * later change of hands (the name taken by another server) is caught by
 * validation. A node that already names its server keeps it: that is what it
 * was built against.
 *
 * @example
 *   withMcpServersRecorded(definition, studio.pool()) // { ..., nodes: [{ kind: "tool", tool: "echo", mcpServer: "files" }] }
 */
export function withMcpServersRecorded(definition: WorkflowDefinition, pool: ToolPool): WorkflowDefinition {
  let changed = false;
  const nodes = definition.nodes.map((node) => {
    if (node.kind !== "tool" || node.mcpServer !== undefined) return node;
    const tool = pool.get(node.tool);
    const server = tool && tool.name === node.tool ? mcpServerOf(tool) : null;
    if (server === null) return node;
    changed = true;
    return { ...node, mcpServer: server };
  });
  return changed ? { ...definition, nodes } : definition;
}

/** Why `tool` is not the one `node` was saved against, in words; null when it is. */
export function mcpOriginProblem(node: ToolNode, tool: Tool): string | null {
  if (node.mcpServer === undefined) return null;
  const server = mcpServerOf(tool);
  if (server === node.mcpServer) return null;
  const now = server === null ? "a tool of the studio itself" : `the MCP server "${server}"`;
  return `This node was saved with "${node.tool}" of the MCP server "${node.mcpServer}", but that name now belongs to ${now}. Choose the tool again from the palette (the server's tools may carry its name, e.g. ${node.mcpServer}__${node.tool}).`;
}

/** Why `tool` cannot be called at all (an MCP tool that requires task-based execution); null when it can. */
export function unavailableProblem(tool: Tool): string | null {
  const unavailable = (tool as Tool & { unavailable?: unknown }).unavailable;
  return typeof unavailable === "string" ? unavailable : null;
}
