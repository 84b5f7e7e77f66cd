/**
 * A draft as a workflow: the model's nodes with settings and places added,
 * its edges with ids. Starting from a person's current workflow, what they
 * already decided stays theirs: a node the draft keeps (same id, same kind and
 * tool) keeps its settings and its place on the canvas, and the workflow its
 * guardrails, approvals and failure handling. New nodes are laid out beside
 * the rest. Pure.
 */
import type { CatalogTool } from "@/lib/contracts/catalog";
import { autoLayoutPositions } from "@/lib/editor/auto-layout";
import type { WorkflowDefinition, WorkflowDefinitionInput, WorkflowNode } from "@/lib/workflow/definition";
import type { Draft, DraftNode } from "./draft-schema";

/** The same node in the draft and the current workflow: same id, same kind and, for a tool step, the same tool. */
function sameNode(drafted: DraftNode, current: WorkflowNode | undefined): current is WorkflowNode {
  if (!current || current.kind !== drafted.kind) return false;
  return drafted.kind !== "tool" || (current.kind === "tool" && current.tool === drafted.tool);
}

export function draftToDefinition(draft: Draft, tools: readonly CatalogTool[], current?: WorkflowDefinition): WorkflowDefinitionInput {
  const byId = new Map((current?.nodes ?? []).map((node) => [node.id, node]));
  const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
  const nodes = draft.nodes.map((drafted) => {
    const kept = byId.get(drafted.id);
    const same = sameNode(drafted, kept);
    const position = same ? kept.position : { x: 0, y: 0 };
    if (drafted.kind !== "tool") return { ...drafted, position };
    const tool = toolsByName.get(drafted.tool);
    // Settings are the person's: kept from their node, else empty for them to fill in.
    const settings = same && kept.kind === "tool" ? kept.settings : {};
    return { ...drafted, settings, position, ...(tool?.server ? { mcpServer: tool.server } : {}) };
  });
  const edges = draft.edges.map((edge, index) => ({ id: `e${index + 1}-${edge.from}-${edge.to}`.slice(0, 200), source: edge.from, target: edge.to, sourceHandle: edge.route ?? null }));

  // Only the nodes new to the canvas move: laid out as the whole graph would be, shifted below what is already there.
  const placed = new Set(nodes.filter((node) => sameNode(node as DraftNode, byId.get(node.id))).map((node) => node.id));
  if (placed.size < nodes.length) {
    const layout = autoLayoutPositions({ nodes: nodes as WorkflowNode[], edges });
    const below = placed.size === 0 ? 0 : Math.max(...nodes.filter((node) => placed.has(node.id)).map((node) => node.position.y)) + 200;
    const top = Math.min(...nodes.filter((node) => !placed.has(node.id)).map((node) => layout.get(node.id)?.y ?? 0));
    for (const node of nodes) {
      if (placed.has(node.id)) continue;
      const point = layout.get(node.id) ?? { x: 0, y: 0 };
      node.position = placed.size === 0 ? point : { x: point.x, y: point.y - top + below };
    }
  }

  return {
    ...(current ? withoutGraph(current) : {}),
    name: draft.name,
    description: draft.description,
    mode: draft.mode,
    nodes,
    edges,
  } as WorkflowDefinitionInput;
}

/** The current workflow's own settings (guardrails, approvals, failure handling…), its graph and wording left out. */
function withoutGraph(current: WorkflowDefinition): Partial<WorkflowDefinition> {
  const rest: Partial<WorkflowDefinition> = { ...current };
  for (const key of ["nodes", "edges", "name", "description", "mode"] as const) delete rest[key];
  return rest;
}
