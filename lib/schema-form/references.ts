/**
 * What a node may refer to in its templates: the run's inputs and the
 * results of nodes upstream of it. Pure, so the inspector's picker and its
 * tests agree on what "upstream" means.
 */
import type { WorkflowDefinition, WorkflowNode } from "@/lib/workflow/definition";
import { enclosingLoops } from "@/lib/workflow/loop-body";
import { nodeKindDefinitions } from "@/nodes/definitions";

type Graph = Pick<WorkflowDefinition, "nodes" | "edges">;

/**
 * The ids of every node that runs before `nodeId`: connected to it through
 * edges, transitively. Nearest first, then by the order of the definition.
 */
export function upstreamNodeIds(definition: Graph, nodeId: string): string[] {
  const incoming = new Map<string, string[]>();
  for (const edge of definition.edges) incoming.set(edge.target, [...(incoming.get(edge.target) ?? []), edge.source]);
  const distance = new Map<string, number>();
  let frontier = [nodeId];
  for (let step = 1; frontier.length > 0; step += 1) {
    const next: string[] = [];
    for (const current of frontier) {
      for (const source of incoming.get(current) ?? []) {
        if (source === nodeId || distance.has(source)) continue;
        distance.set(source, step);
        next.push(source);
      }
    }
    frontier = next;
  }
  const order = new Map(definition.nodes.map((node, index) => [node.id, index]));
  return [...distance.keys()]
    .filter((id) => order.has(id))
    .sort((a, b) => distance.get(a)! - distance.get(b)! || order.get(a)! - order.get(b)!);
}

/** `{{ inputs.city }}` */
export function inputTemplate(name: string): string {
  return `{{ inputs.${name} }}`;
}

/** `{{ nodes.fetch.output }}`, or with a path into its data: `{{ nodes.fetch.data.path }}`. */
export function nodeTemplate(nodeId: string, dataPath?: string): string {
  return dataPath ? `{{ nodes.${nodeId}.data.${dataPath} }}` : `{{ nodes.${nodeId}.output }}`;
}

/** Whether a stored value is (or contains) a `{{ … }}` template rather than a fixed value. */
export function isTemplate(value: unknown): value is string {
  return typeof value === "string" && /\{\{[^{}]*\}\}/.test(value);
}

export interface ReferenceOption {
  group: "Run inputs" | "This item" | "Upstream steps";
  label: string;
  template: string;
  /**
   * What it reads: a run input by name, an upstream node's result (whose sample fields the picker lists), or,
   * inside a For each loop's body, the item it runs for or its index.
   */
  source: { kind: "input"; name: string } | { kind: "node"; nodeId: string; title: string } | { kind: "item"; name: "item" | "index" };
}

/** A node's title as a person reads it: its label, else its tool's title, else its kind. */
export function nodeTitle(node: WorkflowNode, toolTitles: ReadonlyMap<string, string> = new Map()): string {
  if (node.label && node.label.trim() !== "") return node.label;
  if (node.kind === "tool") return toolTitles.get(node.tool) ?? node.tool;
  return nodeKindDefinitions[node.kind].title;
}

/**
 * Everything the "Use a value from…" picker offers `nodeId`: each field of
 * the input node, then each upstream node's output (input nodes excluded:
 * their fields are listed one by one).
 */
export function referenceOptions(definition: Graph, nodeId: string, toolTitles: ReadonlyMap<string, string> = new Map()): ReferenceOption[] {
  const options: ReferenceOption[] = [];
  for (const node of definition.nodes) {
    if (node.kind !== "input") continue;
    for (const field of node.fields) {
      options.push({
        group: "Run inputs",
        label: field.label?.trim() ? `${field.label} (${field.name})` : field.name,
        template: inputTemplate(field.name),
        source: { kind: "input", name: field.name },
      });
    }
  }
  // Inside a For each loop's body: the item it runs for, and its place in the list.
  const loopId = enclosingLoops(definition).get(nodeId);
  if (loopId !== undefined) {
    options.push(
      { group: "This item", label: "The item", template: "{{ item }}", source: { kind: "item", name: "item" } },
      { group: "This item", label: "Its index (from 0)", template: "{{ index }}", source: { kind: "item", name: "index" } },
    );
  }
  const byId = new Map(definition.nodes.map((node) => [node.id, node]));
  for (const id of upstreamNodeIds(definition, nodeId)) {
    const node = byId.get(id);
    if (!node || node.kind === "input") continue;
    const title = nodeTitle(node, toolTitles);
    options.push({ group: "Upstream steps", label: `${title} (${id}) — output`, template: nodeTemplate(id), source: { kind: "node", nodeId: id, title } });
  }
  return options;
}

/** Puts `insertion` in place of the selection `[start, end)` of `text`, returning the new text and caret. */
export function insertAt(text: string, start: number, end: number, insertion: string): { text: string; caret: number } {
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  return { text: text.slice(0, from) + insertion + text.slice(to), caret: from + insertion.length };
}
