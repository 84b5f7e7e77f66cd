import { EACH_ITEM_HANDLE } from "@/nodes/foreach/definition";
import type { WorkflowDefinition } from "./definition";

/*
 * A For each node's loop body: the nodes its "each item" handle leads to,
 * and everything they lead to in turn (plus the tools attached to agents
 * among them). They are not steps of the run that holds the loop: each item
 * is a run of its own restricted to the body.
 */

/** Each For each node's body, by the For each node's id. Browser-safe: the canvas names body nodes by it. */
export function loopBodies(definition: Pick<WorkflowDefinition, "nodes" | "edges">): Map<string, Set<string>> {
  const bodies = new Map<string, Set<string>>();
  const outgoing = new Map<string, string[]>();
  for (const edge of definition.edges) outgoing.set(edge.source, [...(outgoing.get(edge.source) ?? []), edge.target]);
  const kinds = new Map(definition.nodes.map((node) => [node.id, node.kind]));
  for (const node of definition.nodes) {
    if (node.kind !== "foreach") continue;
    // Up to, not including, what follows the loop: an edge from the body into it is a problem validation names, not more body.
    const afterLoop = reachable(definition.edges.filter((edge) => edge.source === node.id && edge.sourceHandle !== EACH_ITEM_HANDLE).map((edge) => edge.target), outgoing, node.id);
    const body = new Set<string>();
    const stack = definition.edges.filter((edge) => edge.source === node.id && edge.sourceHandle === EACH_ITEM_HANDLE).map((edge) => edge.target);
    while (stack.length > 0) {
      const id = stack.pop()!;
      // The loop leading back into its own node is a cycle, which validation reports.
      if (id === node.id || body.has(id) || afterLoop.has(id)) continue;
      body.add(id);
      stack.push(...(outgoing.get(id) ?? []));
    }
    // A tool attached to an agent of the body is called by it there.
    for (const edge of definition.edges) {
      if (body.has(edge.target) && kinds.get(edge.target) === "agent" && kinds.get(edge.source) === "tool") body.add(edge.source);
    }
    bodies.set(node.id, body);
  }
  return bodies;
}

function reachable(starts: readonly string[], outgoing: ReadonlyMap<string, readonly string[]>, stopAt: string): Set<string> {
  const seen = new Set<string>();
  const stack = [...starts];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (id === stopAt || seen.has(id)) continue;
    seen.add(id);
    stack.push(...(outgoing.get(id) ?? []));
  }
  return seen;
}

/** The For each node whose body holds each node (the innermost, when loops nest). */
export function enclosingLoops(definition: Pick<WorkflowDefinition, "nodes" | "edges">): Map<string, string> {
  const bodies = loopBodies(definition);
  const enclosing = new Map<string, string>();
  // Smallest body last, so a nested loop's nodes end up under the nested loop.
  const bySize = [...bodies.entries()].sort(([, a], [, b]) => b.size - a.size);
  for (const [loopId, body] of bySize) for (const id of body) enclosing.set(id, loopId);
  return enclosing;
}

/** The label of the loop whose body holds each node ("For each" when it has none): what its card says. */
export function loopLabels(definition: Pick<WorkflowDefinition, "nodes" | "edges">): Map<string, string> {
  const labels = new Map(definition.nodes.map((node) => [node.id, node.label ?? "For each"]));
  return new Map([...enclosingLoops(definition)].map(([nodeId, loopId]) => [nodeId, labels.get(loopId) ?? loopId]));
}

/**
 * The definition an item's run runs: the body of `loopNodeId` alone, with
 * the edges between its nodes. Its first nodes have nothing before them, so
 * they start as the run does.
 */
export function loopBodyDefinition(definition: WorkflowDefinition, loopNodeId: string): WorkflowDefinition {
  const body = loopBodies(definition).get(loopNodeId) ?? new Set<string>();
  return {
    ...definition,
    nodes: definition.nodes.filter((node) => body.has(node.id)),
    edges: definition.edges.filter((edge) => body.has(edge.source) && body.has(edge.target)),
  };
}

/**
 * The value of an item's run: its body's last nodes' results (those nothing
 * in the body follows): one node's value, or each by its label when there are
 * several. A skipped branch reads as null.
 */
export function loopItemOutput(
  definition: Pick<WorkflowDefinition, "nodes" | "edges">,
  outputs: Readonly<Record<string, { content: string; data?: unknown } | undefined>>,
): unknown {
  const followed = new Set(definition.edges.map((edge) => edge.source));
  const attached = new Set(definition.edges.filter((edge) => definition.nodes.find((node) => node.id === edge.target)?.kind === "agent").map((edge) => edge.source));
  const last = definition.nodes.filter((node) => !followed.has(node.id) && !attached.has(node.id));
  const valueOf = (id: string) => {
    const output = outputs[id];
    if (!output) return null;
    return output.data !== undefined ? output.data : output.content;
  };
  if (last.length === 1) return valueOf(last[0]!.id);
  return Object.fromEntries(last.map((node) => [node.label ?? node.id, valueOf(node.id)]));
}
