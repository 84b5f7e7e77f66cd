import type { CatalogTool } from "@/lib/contracts/catalog";
import type { WorkflowDefinition } from "@/lib/workflow/definition";
import { DEFAULT_ROUTE } from "@/nodes/router/definition";
import { nodeKindDefinitions, startsRunsOf } from "@/nodes/definitions";
import { CARD_HEIGHT, CARD_WIDTH, LAYER_GAP, type Point } from "./auto-layout";
import { addEdge, addNode, createNode, edgeForConnection, moveNodes, removeElements, type PaletteItem } from "./definition-edits";
import type { Dimensions } from "./to-flow";

type Graph = Pick<WorkflowDefinition, "nodes" | "edges">;

export type EdgeInsertion<T extends Graph> = { definition: T; nodeId: string } | { refused: string };

/**
 * A new step for `item` put into the edge `edgeId`, as n8n's + on a
 * connection does: the edge goes, source -> new step -> target come in its
 * place (the source keeps the handle the edge left from: a route, an error
 * path, a loop's body), and the step sits between the two cards. When the
 * gap is too narrow for a card, the target and everything after it move
 * right to make room, so no card lands on another. One definition in, one
 * out: the editor commits it as one undo step.
 *
 * @example
 *   insertOnEdge(definition, "read->write", { kind: "tool", tool: "sql" }, tools)
 *   // { definition: … read -> sql_1 -> write …, nodeId: "sql_1" }
 */
export function insertOnEdge<T extends Graph>(
  definition: T,
  edgeId: string,
  item: PaletteItem,
  tools: ReadonlyMap<string, CatalogTool>,
  sizes: ReadonlyMap<string, Dimensions> = new Map(),
): EdgeInsertion<T> {
  const edge = definition.edges.find((each) => each.id === edgeId);
  const source = edge && definition.nodes.find((node) => node.id === edge.source);
  const target = edge && definition.nodes.find((node) => node.id === edge.target);
  if (!edge || !source || !target) return { refused: "That connection is no longer in the workflow." };
  if (startsRunsOf(item.kind) !== null) {
    return { refused: `“${nodeKindDefinitions[item.kind].title}” starts a workflow: it cannot go between two steps. Add it from the palette instead.` };
  }

  const sourceRight = source.position.x + (sizes.get(source.id)?.width ?? CARD_WIDTH);
  const sourceMiddle = source.position.y + (sizes.get(source.id)?.height ?? CARD_HEIGHT) / 2;
  const targetMiddle = target.position.y + (sizes.get(target.id)?.height ?? CARD_HEIGHT) / 2;
  const room = target.position.x - sourceRight;
  const needed = CARD_WIDTH + 2 * LAYER_GAP;
  const x = room >= needed ? sourceRight + (room - CARD_WIDTH) / 2 : sourceRight + LAYER_GAP;
  const position: Point = { x, y: (sourceMiddle + targetMiddle) / 2 - CARD_HEIGHT / 2 };

  const node = createNode(item, position, definition, tools);
  if (!node) return { refused: item.kind === "tool" ? "That tool is not available in this studio." : `A workflow has one ${nodeKindDefinitions[item.kind].title} node at most.` };

  let graph: T = room >= needed ? definition : moveNodes(definition, shiftedRight(definition, target.id, source.id, needed - room));
  graph = addNode(removeElements(graph, new Set(), new Set([edge.id])), node);
  const into = edgeForConnection(graph, { source: source.id, target: node.id, sourceHandle: edge.sourceHandle });
  if ("refused" in into) return into;
  graph = addEdge(graph, into.edge);
  // A new router has no routes yet: what followed the edge carries on along its default route.
  const outOf = edgeForConnection(graph, { source: node.id, target: target.id, sourceHandle: node.kind === "router" ? DEFAULT_ROUTE : null });
  if ("refused" in outOf) return outOf;
  return { definition: addEdge(graph, outOf.edge), nodeId: node.id };
}

/** New positions for `from` and every node after it (along edges), moved `distance` to the right; the upstream `stop` stays put. */
function shiftedRight(definition: Graph, from: string, stop: string, distance: number): Map<string, Point> {
  const next = new Map<string, string[]>();
  for (const edge of definition.edges) next.set(edge.source, [...(next.get(edge.source) ?? []), edge.target]);
  const reached = new Set<string>([from]);
  const queue = [from];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const after of next.get(id) ?? []) {
      if (after === stop || reached.has(after)) continue;
      reached.add(after);
      queue.push(after);
    }
  }
  const positions = new Map<string, Point>();
  for (const node of definition.nodes) {
    if (reached.has(node.id)) positions.set(node.id, { x: node.position.x + distance, y: node.position.y });
  }
  return positions;
}
