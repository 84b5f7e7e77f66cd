import type { CatalogTool } from "@/lib/contracts/catalog";
import { ERROR_HANDLE } from "@/lib/contracts/execution-settings";
import type { WorkflowDefinition, WorkflowEdge, WorkflowNode } from "@/lib/workflow/definition";
import { edgeName, type NodeNames } from "./connection-choices";
import { cardData } from "./to-flow";

/**
 * What the editor's live region says after an edit a screen reader cannot
 * see happen: a card added, a connection made. Nodes are named as their
 * cards are (label, else the tool's or kind's title), so the words match
 * what a sighted person reads on the canvas.
 */

function titleOf(node: WorkflowNode, tools: ReadonlyMap<string, CatalogTool>): string {
  return cardData(node, node.kind === "tool" ? tools.get(node.tool) : undefined).title;
}

/** "Added Write a File". */
export function nodeAddedText(node: WorkflowNode, tools: ReadonlyMap<string, CatalogTool>): string {
  return `Added ${titleOf(node, tools)}`;
}

/** Cards' names in `definition`, for the connection's words (a node just added included). */
export function definitionNames(definition: Pick<WorkflowDefinition, "nodes">, tools: ReadonlyMap<string, CatalogTool>): NodeNames {
  const cards = new Map(definition.nodes.map((node) => [node.id, cardData(node, node.kind === "tool" ? tools.get(node.tool) : undefined)]));
  return {
    titleOf: (nodeId) => cards.get(nodeId)?.title ?? nodeId,
    outputsOf: (nodeId) => cards.get(nodeId)?.outputs ?? [],
    hasErrorPath: (nodeId) => cards.get(nodeId)?.errorHandle === true,
  };
}

/** "Connected Run inputs to Write a File", "Connected Check to Notify (route yes)", "Connected the error path of Fetch to Notify". */
export function connectionMadeText(names: NodeNames, edge: Pick<WorkflowEdge, "source" | "target" | "sourceHandle">): string {
  if (edge.sourceHandle === ERROR_HANDLE) return `Connected the error path of ${names.titleOf(edge.source)} to ${names.titleOf(edge.target)}`;
  return `Connected ${names.titleOf(edge.source)} to ${edgeName(names, edge.target, edge.source, edge.sourceHandle)}`;
}
