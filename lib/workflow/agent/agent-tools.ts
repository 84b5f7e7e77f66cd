import { modelToolSchema, operationInputJsonSchema, type ModelToolSchema, type Tool, type ToolPool } from "@/lib/tools";
import type { ToolNode } from "../definition";

/** The control tools every agent has, whatever is attached to it. */
export const AGENT_CONTROL_TOOLS: readonly string[] = ["ask_user", "todo", "finish"];

/** Model APIs accept tool names of at most 64 letters, digits, `_` or `-`. */
const MODEL_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * One tool as an agent's model knows it. `schema` is all the model sees; the
 * node's settings and bound arguments (secrets among them) stay here and are
 * supplied on every call.
 */
export interface AgentTool {
  /** The name the model calls it by: the tool's name, or `<tool>_<node>` when two nodes attach the same tool. */
  name: string;
  tool: Tool;
  /** The attached tool node, or `null` for the control tools. */
  nodeId: string | null;
  operation: string | null;
  settings: Record<string, unknown>;
  /** The node's bound arguments, templates not yet resolved (the operation is added when the call runs). */
  boundArguments: Record<string, unknown>;
  schema: ModelToolSchema;
}

/**
 * The tools offered to an agent: those of its attached tool nodes, each with
 * the node's bound arguments hidden from the model, then ask_user, todo and
 * finish. A node bound to one operation offers only that operation.
 */
export function agentToolsFor(attached: readonly ToolNode[], pool: ToolPool): AgentTool[] {
  const counts = new Map<string, number>();
  for (const node of attached) counts.set(node.tool, (counts.get(node.tool) ?? 0) + 1);
  const tools: AgentTool[] = [];
  for (const node of attached) {
    const tool = pool.get(node.tool);
    if (!tool || tool.name !== node.tool) throw new Error(`The tool "${node.tool}" of node "${node.id}" is not available.`);
    const bound = Object.keys(node.arguments).filter((key) => node.arguments[key] !== undefined && node.arguments[key] !== "");
    const boundArguments = Object.fromEntries(bound.map((key) => [key, node.arguments[key]]));
    const name = (counts.get(node.tool) ?? 0) > 1 ? `${node.tool}_${node.id}`.slice(0, 64) : node.tool;
    const schema = operationSchema(tool, node.operation, bound);
    tools.push({
      name: MODEL_TOOL_NAME.test(name) ? name : name.replace(/[^A-Za-z0-9_-]/g, "_"),
      tool,
      nodeId: node.id,
      operation: node.operation,
      settings: node.settings,
      boundArguments,
      schema: { ...schema, name },
    });
  }
  for (const controlName of AGENT_CONTROL_TOOLS) {
    const tool = pool.get(controlName);
    if (!tool) continue;
    tools.push({ name: tool.name, tool, nodeId: null, operation: null, settings: {}, boundArguments: {}, schema: modelToolSchema(tool) });
  }
  return tools;
}

/**
 * A node bound to one operation offers that operation's inputs only (the
 * operation itself is bound); a tool without operations offers its inputs.
 */
function operationSchema(tool: Tool, operation: string | null, bound: readonly string[]): ModelToolSchema {
  const chosen = operation ? tool.operations?.[operation] : undefined;
  if (!operation || !chosen) return modelToolSchema(tool, bound);
  const hidden = [...new Set([...tool.secretInputs, ...bound, "operation"])];
  return {
    name: tool.name,
    description: `${tool.description} This step always does: ${chosen.title}. ${chosen.description}`,
    inputSchema: operationInputJsonSchema(tool, operation, hidden),
  };
}
