import type { WorkflowDefinition, WorkflowNode } from "@/lib/workflow/definition";

/** Card sizes on the canvas (components/flow/node-card.tsx is 240 px wide). */
export const CARD_WIDTH = 240;
export const CARD_HEIGHT = 76;
const ROUTE_ROW_HEIGHT = 20;
export const LAYER_GAP = 100;
export const ROW_GAP = 48;

export interface Point {
  x: number;
  y: number;
}

/** How tall a node's card is, about: routers grow a row per route (plus "default"). */
export function estimatedHeight(node: WorkflowNode): number {
  return node.kind === "router" ? CARD_HEIGHT + 12 + ROUTE_ROW_HEIGHT * (node.routes.length + 1) : CARD_HEIGHT;
}

/**
 * The layer of each node: its longest path from a root (a node nothing points
 * to). Edges that close a cycle are ignored, at the first node of the cycle in
 * the definition's order, so every node gets a layer.
 */
export function longestPathLayers(definition: Pick<WorkflowDefinition, "nodes" | "edges">): Map<string, number> {
  const ids = definition.nodes.map((node) => node.id);
  const known = new Set(ids);
  const incoming = new Map<string, number>(ids.map((id) => [id, 0]));
  const successors = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const edge of definition.edges) {
    if (!known.has(edge.source) || !known.has(edge.target) || edge.source === edge.target) continue;
    successors.get(edge.source)!.push(edge.target);
    incoming.set(edge.target, incoming.get(edge.target)! + 1);
  }
  const layers = new Map<string, number>();
  const done = new Set<string>();
  const queue: string[] = ids.filter((id) => incoming.get(id) === 0);
  for (const id of queue) layers.set(id, 0);
  let head = 0;
  for (;;) {
    while (head < queue.length) {
      const id = queue[head++]!;
      done.add(id);
      const layer = layers.get(id) ?? 0;
      for (const next of successors.get(id)!) {
        if (done.has(next)) continue;
        layers.set(next, Math.max(layers.get(next) ?? 0, layer + 1));
        const remaining = incoming.get(next)! - 1;
        incoming.set(next, remaining);
        if (remaining === 0) queue.push(next);
      }
    }
    // What is left sits on or behind a cycle: break it at the first such node.
    const stuck = ids.find((id) => !done.has(id) && !queue.includes(id));
    if (stuck === undefined) break;
    incoming.set(stuck, 0);
    if (!layers.has(stuck)) layers.set(stuck, 0);
    queue.push(stuck);
  }
  return layers;
}

/**
 * A left-to-right layout: one column per layer (longest path from the
 * roots), each column's nodes ordered by the mean row of their predecessors
 * (ties by their order in the definition), columns centred on y = 0. The same
 * graph always gets the same layout.
 */
export function autoLayoutPositions(definition: Pick<WorkflowDefinition, "nodes" | "edges">): Map<string, Point> {
  const layers = longestPathLayers(definition);
  const index = new Map(definition.nodes.map((node, position) => [node.id, position]));
  const predecessors = new Map<string, string[]>();
  for (const edge of definition.edges) {
    if (!index.has(edge.source) || !index.has(edge.target)) continue;
    const list = predecessors.get(edge.target) ?? [];
    list.push(edge.source);
    predecessors.set(edge.target, list);
  }
  const columns: WorkflowNode[][] = [];
  for (const node of definition.nodes) {
    const layer = layers.get(node.id) ?? 0;
    (columns[layer] ??= []).push(node);
  }
  const row = new Map<string, number>();
  const positions = new Map<string, Point>();
  columns.forEach((column, layer) => {
    const keyed = column.map((node) => {
      const placed = (predecessors.get(node.id) ?? []).filter((id) => row.has(id) && (layers.get(id) ?? 0) < layer);
      const barycenter = placed.length === 0 ? Number.POSITIVE_INFINITY : placed.reduce((sum, id) => sum + row.get(id)!, 0) / placed.length;
      return { node, barycenter, order: index.get(node.id)! };
    });
    keyed.sort((a, b) => (a.barycenter === b.barycenter ? a.order - b.order : a.barycenter - b.barycenter));
    const total = keyed.reduce((sum, { node }) => sum + estimatedHeight(node), 0) + ROW_GAP * Math.max(0, keyed.length - 1);
    let y = -total / 2;
    keyed.forEach(({ node }, position) => {
      row.set(node.id, position);
      positions.set(node.id, { x: layer * (CARD_WIDTH + LAYER_GAP), y: Math.round(y) });
      y += estimatedHeight(node) + ROW_GAP;
    });
  });
  return positions;
}

/** The definition with every node moved to its auto-layout position; unmoved nodes keep their objects. */
export function autoLayout<T extends Pick<WorkflowDefinition, "nodes" | "edges">>(definition: T): T {
  const positions = autoLayoutPositions(definition);
  let changed = false;
  const nodes = definition.nodes.map((node) => {
    const position = positions.get(node.id);
    if (!position || (position.x === node.position.x && position.y === node.position.y)) return node;
    changed = true;
    return { ...node, position };
  });
  return changed ? { ...definition, nodes } : definition;
}

/**
 * `position`, moved down and right in steps until no card sits within a few
 * pixels of it: a card added twice at one spot (the palette's Enter, the
 * canvas centre) does not hide the first.
 */
export function clearOfOtherCards(position: Point, nodes: readonly { position: Point }[]): Point {
  const spot = { ...position };
  while (nodes.some((node) => Math.abs(node.position.x - spot.x) < 12 && Math.abs(node.position.y - spot.y) < 12)) {
    spot.x += 32;
    spot.y += 32;
  }
  return spot;
}
