import type { WorkflowDefinition, WorkflowNode } from "@/lib/workflow/definition";
import { buildGraph } from "@/lib/workflow/scheduler";

/**
 * Which steps of a version ask a person before they act: a tool step whose
 * tool may change the world (or is an MCP server's), an agent with such a
 * tool attached, under any mode but `bypass`. An evaluation runs every row
 * through the same gate as any run, so each such step asks once per row,
 * unless the step is pinned: then an evaluation's run keeps the pin's output
 * instead (lib/server/evaluations), and nothing is asked or done. The
 * evaluation form says which before a start. Pure, given how a tool is gated.
 */

/** Whether a call of `tool` (with `operation`, when the node names one) goes through the permission gate; false for a tool not installed. */
export type ToolGated = (tool: string, operation: string | null) => boolean;

export interface ApprovalSteps {
  /** Steps that ask in every row's run. */
  asks: string[];
  /** Steps that would ask, kept from their pins in an evaluation. */
  pinned: string[];
}

export function approvalSteps(definition: Pick<WorkflowDefinition, "nodes" | "edges" | "mode">, gated: ToolGated, pins: ReadonlySet<string>): ApprovalSteps {
  const graph = buildGraph(definition);
  const byId = new Map(definition.nodes.map((node) => [node.id, node]));
  const toolGated = (node: WorkflowNode | undefined) => node?.kind === "tool" && gated(node.tool, node.operation);
  const result: ApprovalSteps = { asks: [], pinned: [] };
  for (const nodeId of graph.nodeIds) {
    const node = byId.get(nodeId)!;
    const mode = (node.kind === "agent" ? node.mode : undefined) ?? definition.mode;
    if (mode === "bypass") continue;
    const asks = node.kind === "tool" ? toolGated(node) : node.kind === "agent" && (graph.attachments.get(nodeId) ?? []).some((tool) => toolGated(byId.get(tool)));
    if (asks) (pins.has(nodeId) ? result.pinned : result.asks).push(nodeId);
  }
  return result;
}

/** Whether the version has an output step: an evaluation compares what its runs give, and a run without one gives nothing. */
export function hasOutputStep(definition: Pick<WorkflowDefinition, "nodes">): boolean {
  return definition.nodes.some((node) => node.kind === "output");
}
