import type { WorkflowDefinition } from "./definition";

/** A column per step along the edges, a row per node in a column: room for a card (about 260 × 100) and its edges. */
const COLUMN_WIDTH = 320;
const ROW_HEIGHT = 160;

/**
 * A definition whose nodes were given no places, laid out left to right.
 * A node's position defaults to (0, 0), so a workflow written by hand or by a
 * script (the API, a workflow file) without positions would show every card
 * on top of the others. When every node sits on one spot, each is placed in
 * the column of its longest path from a start (edges that would close a
 * cycle are ignored), and in its column's next row. Anything else, a layout
 * a person made among it, is returned as it is.
 */
export function placeStackedNodes(definition: WorkflowDefinition): WorkflowDefinition {
  const { nodes, edges } = definition;
  const origin = nodes[0]?.position;
  if (!origin || nodes.length < 2 || !nodes.every((node) => node.position.x === origin.x && node.position.y === origin.y)) return definition;
  const column = new Map(nodes.map((node) => [node.id, 0]));
  // Longest paths by relaxing every edge until nothing moves; a column never passes the node count, so a cycle ends too.
  for (let pass = 0; pass < nodes.length; pass++) {
    let moved = false;
    for (const edge of edges) {
      const from = column.get(edge.source);
      const to = column.get(edge.target);
      if (from === undefined || to === undefined || to > from || from + 1 >= nodes.length) continue;
      column.set(edge.target, from + 1);
      moved = true;
    }
    if (!moved) break;
  }
  const rowsTaken = new Map<number, number>();
  return {
    ...definition,
    nodes: nodes.map((node) => {
      const x = column.get(node.id)!;
      const y = rowsTaken.get(x) ?? 0;
      rowsTaken.set(x, y + 1);
      return { ...node, position: { x: origin.x + x * COLUMN_WIDTH, y: origin.y + y * ROW_HEIGHT } };
    }),
  };
}
