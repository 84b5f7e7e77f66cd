import { DONE_HANDLE } from "@/nodes/foreach/definition";
import type { CatalogTool } from "@/lib/contracts/catalog";
import type { WorkflowDefinition, WorkflowEdge, WorkflowNode } from "@/lib/workflow/definition";
import { ERROR_HANDLE, ON_ERROR_CHOICES } from "@/lib/contracts/execution-settings";
import { executionOf, handlesFailures, nodeKindDefinitions, type PaletteItem } from "@/nodes/definitions";
import type { NewNodePlace } from "@/nodes/node-kind";
import type { Point } from "./auto-layout";

/** What a palette item makes: a tool (with an operation) or a building block; each kind declares its own. */
export type { PaletteItem };

const NODE_ID_LIMIT = 64;

/** A node id like `write_file_3`: the base made id-safe, with the lowest free number. */
export function uniqueNodeId(base: string, taken: ReadonlySet<string>): string {
  let safe = base.replace(/[^A-Za-z0-9_-]/g, "_");
  if (!/^[A-Za-z]/.test(safe)) safe = `n${safe}`;
  safe = safe.slice(0, NODE_ID_LIMIT - 6);
  for (let number = 1; ; number += 1) {
    const id = `${safe}_${number}`;
    if (!taken.has(id)) return id;
  }
}

/**
 * A new node for a palette item at `position`, made by its kind (nodes/<kind>/definition.ts);
 * null when the item cannot be added (a second input node, or a tool the catalog does not have).
 */
export function createNode(
  item: PaletteItem,
  position: Point,
  definition: Pick<WorkflowDefinition, "nodes">,
  tools: ReadonlyMap<string, CatalogTool>,
): WorkflowNode | null {
  const kind = nodeKindDefinitions[item.kind];
  if (kind.onePerWorkflow && definition.nodes.some((node) => node.kind === item.kind)) return null;
  const taken = new Set(definition.nodes.map((node) => node.id));
  const place = {
    idFor: (base: string) => uniqueNodeId(base, taken),
    position: { x: Math.round(position.x), y: Math.round(position.y) },
    tools,
  };
  // `item.kind` picked the entry, so the item is the one that entry takes.
  return (kind.createNode as (item: PaletteItem, place: NewNodePlace) => WorkflowNode | null)(item, place);
}

export function addNode<T extends Pick<WorkflowDefinition, "nodes">>(definition: T, node: WorkflowNode): T {
  return { ...definition, nodes: [...definition.nodes, node] };
}

/** Removes nodes and edges; edges touching a removed node go too. */
export function removeElements<T extends Pick<WorkflowDefinition, "nodes" | "edges">>(
  definition: T,
  nodeIds: ReadonlySet<string>,
  edgeIds: ReadonlySet<string> = new Set(),
): T {
  if (nodeIds.size === 0 && edgeIds.size === 0) return definition;
  return {
    ...definition,
    nodes: definition.nodes.filter((node) => !nodeIds.has(node.id)),
    edges: definition.edges.filter((edge) => !edgeIds.has(edge.id) && !nodeIds.has(edge.source) && !nodeIds.has(edge.target)),
  };
}

/** Replaces the node `id`; if its id changed, the edges follow it. */
export function replaceNode<T extends Pick<WorkflowDefinition, "nodes" | "edges">>(definition: T, id: string, node: WorkflowNode): T {
  const nodes = definition.nodes.map((each) => (each.id === id ? node : each));
  if (node.id === id) return { ...definition, nodes };
  const edges = definition.edges.map((edge) =>
    edge.source === id || edge.target === id
      ? { ...edge, source: edge.source === id ? node.id : edge.source, target: edge.target === id ? node.id : edge.target }
      : edge,
  );
  return { ...definition, nodes, edges };
}

/** Moves nodes; nodes not in `positions` (or already there) keep their objects. */
export function moveNodes<T extends Pick<WorkflowDefinition, "nodes">>(definition: T, positions: ReadonlyMap<string, Point>): T {
  if (positions.size === 0) return definition;
  let changed = false;
  const nodes = definition.nodes.map((node) => {
    const position = positions.get(node.id);
    if (!position || (position.x === node.position.x && position.y === node.position.y)) return node;
    changed = true;
    return { ...node, position: { x: position.x, y: position.y } };
  });
  return changed ? { ...definition, nodes } : definition;
}

export interface Connection {
  source: string | null;
  target: string | null;
  sourceHandle?: string | null;
}

/**
 * The edge a drag from one handle to another makes, or a reason it cannot:
 * no loops onto the same node, nothing into the run inputs or out of an
 * output, a router's edge leaves from one of its routes, an error edge from a
 * node that follows its error path, no duplicates.
 */
export function edgeForConnection(
  definition: Pick<WorkflowDefinition, "nodes" | "edges">,
  connection: Connection,
): { edge: WorkflowEdge } | { refused: string } {
  const source = definition.nodes.find((node) => node.id === connection.source);
  const target = definition.nodes.find((node) => node.id === connection.target);
  if (!source || !target) return { refused: "Connect two nodes of this workflow." };
  if (source.id === target.id) return { refused: "A node cannot feed itself." };
  if (target.kind === "input") return { refused: "Run inputs start the workflow: nothing can flow into them." };
  if (source.kind === "output") return { refused: "An output ends the workflow: nothing flows out of it." };
  const fromErrorHandle = connection.sourceHandle === ERROR_HANDLE;
  if (fromErrorHandle && (!handlesFailures(source.kind) || executionOf(source)?.onError !== "error-edge")) {
    return { refused: `Choose “${ON_ERROR_CHOICES["error-edge"].label}” under On failure first: then the card has an error handle to connect from.` };
  }
  // A For each's body hangs from its "each item" handle; what follows the loop, from "done".
  const handle = fromErrorHandle ? ERROR_HANDLE : source.kind === "router" ? (connection.sourceHandle ?? null) : source.kind === "foreach" ? (connection.sourceHandle ?? DONE_HANDLE) : null;
  if (source.kind === "router" && handle === null) return { refused: "Connect from one of the router's routes." };
  if (definition.edges.some((edge) => edge.source === source.id && edge.target === target.id && edge.sourceHandle === handle)) {
    return { refused: "These nodes are already connected." };
  }
  const taken = new Set(definition.edges.map((edge) => edge.id));
  const base = `${source.id}${handle ? `.${handle}` : ""}->${target.id}`;
  let id = base;
  for (let number = 2; taken.has(id); number += 1) id = `${base}#${number}`;
  return { edge: { id, source: source.id, target: target.id, sourceHandle: handle } };
}

export function addEdge<T extends Pick<WorkflowDefinition, "edges">>(definition: T, edge: WorkflowEdge): T {
  return { ...definition, edges: [...definition.edges, edge] };
}
