import { z } from "zod";
import { approvalPolicy, failureHandling, nodeBase } from "../node-base";
import type { NodeKindDefinition } from "../node-kind";

/**
 * One tool, one operation. `settings` follow the tool's settings model;
 * `arguments` are bound by the builder (fixed values or `{{ ... }}`
 * templates) and supplied on every call; secret inputs hold `${NAME}`.
 */
export const ToolNodeSchema = z.object({
  ...nodeBase,
  ...failureHandling,
  ...approvalPolicy,
  kind: z.literal("tool"),
  tool: z.string().min(1, "choose a tool"),
  operation: z.string().min(1).nullable().default(null),
  settings: z.record(z.string(), z.unknown()).default({}),
  arguments: z.record(z.string(), z.unknown()).default({}),
  /**
   * The MCP server the tool came from when the node was saved (recorded on
   * save). Should the name later resolve to another server's tool, validation
   * says so instead of running against a server nobody chose.
   */
  mcpServer: z.string().min(1).max(40).optional(),
});
export type ToolNode = z.infer<typeof ToolNodeSchema>;

/** What the palette hands over for a tool: which one, and the operation picked (else its first). */
export interface ToolPaletteItem {
  kind: "tool";
  tool: string;
  operation?: string | null;
}

export const toolKind = {
  kind: "tool",
  schema: ToolNodeSchema,
  title: "Tool",
  icon: "wrench",
  // Tools are listed by the palette from the catalog, grouped by domain, not as one block.
  palette: null,
  onePerWorkflow: false,
  handlesFailures: true,
  createNode: (item, { idFor, position, tools }) => {
    const tool = tools.get(item.tool);
    if (!tool) return null;
    const operation =
      item.operation && tool.operations.some((each) => each.name === item.operation) ? item.operation : (tool.operations[0]?.name ?? null);
    // An MCP tool's node remembers the server it was picked from (see ToolNodeSchema.mcpServer).
    const origin = tool.server ? { mcpServer: tool.server } : {};
    return { id: idFor(tool.name), kind: "tool", position, tool: tool.name, operation, settings: {}, arguments: {}, ...origin };
  },
  card: {
    content: (node, tool) => {
      const operation = tool?.operations.find((each) => each.name === node.operation);
      const subtitle = !tool
        ? "This tool is not installed"
        : operation
          ? operation.title
          : tool.operations.length > 0
            ? "Choose an operation"
            : undefined;
      return {
        title: node.label || tool?.title || "Unknown tool",
        ...(subtitle ? { subtitle } : {}),
        icon: tool?.icon ?? null,
        domain: tool?.domain ?? "custom",
      };
    },
    sameContent: (before, after) => before.tool === after.tool && before.operation === after.operation,
  },
} satisfies NodeKindDefinition<ToolNode, ToolPaletteItem>;
