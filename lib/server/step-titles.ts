import type { ToolPool } from "@/lib/tools";
import { nodeTitle } from "@/lib/schema-form/references";
import type { WorkflowNode } from "@/lib/workflow/definition";

/**
 * Each step's title as its card shows it (its label, else its tool's title),
 * for messages a person reads: "Write the note", not "write_file_1". Two steps
 * with the same title are told apart by their ids.
 */
export function stepTitles(nodes: readonly WorkflowNode[], pool: ToolPool): (nodeId: string) => string {
  const toolTitles = new Map<string, string>();
  for (const node of nodes) {
    const title = node.kind === "tool" ? pool.get(node.tool)?.title : undefined;
    if (node.kind === "tool" && title) toolTitles.set(node.tool, title);
  }
  const titles = new Map(nodes.map((node) => [node.id, nodeTitle(node, toolTitles)]));
  const count = new Map<string, number>();
  for (const title of titles.values()) count.set(title, (count.get(title) ?? 0) + 1);
  return (nodeId) => {
    const title = titles.get(nodeId);
    if (title === undefined) return `“${nodeId}”`;
    return (count.get(title) ?? 0) > 1 ? `“${title}” (${nodeId})` : `“${title}”`;
  };
}
