/**
 * A draft as a change to the workflow on the canvas: which nodes it adds,
 * changes or removes and which edges it adds or removes, each with the
 * plan's reason; and the workflow after accepting all, some or none of them.
 * Edges are matched by their ends (and route), not their ids, which a draft
 * makes anew. Pure, for the editor and the server alike.
 */
import type { WorkflowDefinition, WorkflowDefinitionInput, WorkflowEdge, WorkflowNode } from "@/lib/workflow/definition";
import { canonicalJson } from "@/lib/tools/permissions/canonical-json";
import type { PlanStep } from "./draft-schema";

export type ChangeKind = "added" | "changed" | "removed";

export interface NodeChange {
  key: string;
  nodeId: string;
  change: ChangeKind;
  /** The plan's words for the step this node carries out (added or changed nodes). */
  step: string | null;
  reason: string | null;
}

export interface EdgeChange {
  key: string;
  source: string;
  target: string;
  sourceHandle: string | null;
  change: Exclude<ChangeKind, "changed">;
}

export interface Proposal {
  nodes: NodeChange[];
  edges: EdgeChange[];
  /** The workflow's own fields the draft changes (its name, description, mode). */
  workflow: { field: "name" | "description" | "mode"; from: string; to: string }[];
}

type Graph = Pick<WorkflowDefinition, "nodes" | "edges">;
export const edgeKey = (edge: Pick<WorkflowEdge, "source" | "target" | "sourceHandle">) => `edge:${edge.source}->${edge.target}${edge.sourceHandle ? `#${edge.sourceHandle}` : ""}`;
const nodeKey = (nodeId: string) => `node:${nodeId}`;

/**
 * What a node is, without its place on the canvas (a moved card is not a changed step), and whatever
 * the order of its fields (a stored node and a drafted one list them differently).
 */
function content(node: WorkflowNode | WorkflowDefinitionInput["nodes"][number]): string {
  return canonicalJson(Object.fromEntries(Object.entries(node).filter(([key]) => key !== "position")));
}

export function proposalOf(current: Graph & Partial<Pick<WorkflowDefinition, "name" | "description" | "mode">>, proposed: WorkflowDefinitionInput, plan: readonly PlanStep[] = []): Proposal {
  const stepOf = new Map<string, PlanStep>();
  for (const step of plan) for (const nodeId of step.nodeIds) if (!stepOf.has(nodeId)) stepOf.set(nodeId, step);
  const before = new Map(current.nodes.map((node) => [node.id, node]));
  const after = new Map(proposed.nodes.map((node) => [node.id, node]));
  const nodes: NodeChange[] = [];
  for (const node of proposed.nodes) {
    const was = before.get(node.id);
    const change: ChangeKind | null = !was ? "added" : content(was) === content(node) ? null : "changed";
    if (change) nodes.push({ key: nodeKey(node.id), nodeId: node.id, change, step: stepOf.get(node.id)?.step ?? null, reason: stepOf.get(node.id)?.reason ?? null });
  }
  for (const node of current.nodes) {
    if (!after.has(node.id)) nodes.push({ key: nodeKey(node.id), nodeId: node.id, change: "removed", step: null, reason: null });
  }
  const proposedEdges = (proposed.edges ?? []).map((edge) => ({ source: edge.source, target: edge.target, sourceHandle: edge.sourceHandle ?? null }));
  const beforeEdges = new Set(current.edges.map(edgeKey));
  const afterEdges = new Set(proposedEdges.map(edgeKey));
  const edges: EdgeChange[] = [
    ...proposedEdges.filter((edge) => !beforeEdges.has(edgeKey(edge))).map((edge) => ({ key: edgeKey(edge), ...edge, change: "added" as const })),
    ...current.edges.filter((edge) => !afterEdges.has(edgeKey(edge))).map((edge) => ({ key: edgeKey(edge), source: edge.source, target: edge.target, sourceHandle: edge.sourceHandle, change: "removed" as const })),
  ];
  const workflow: Proposal["workflow"] = [];
  for (const field of ["name", "description", "mode"] as const) {
    const from = current[field];
    const to = proposed[field];
    if (typeof to === "string" && from !== undefined && from !== to) workflow.push({ field, from, to });
  }
  return { nodes, edges, workflow };
}

/**
 * The workflow after accepting the changes whose keys are in `accepted`
 * (all of them: the proposed workflow's graph). An accepted edge whose end
 * is not there afterwards (its node's addition declined, or its removal
 * accepted) is left out, and so is a kept edge to a removed node.
 */
export function acceptProposal(current: WorkflowDefinition, proposed: WorkflowDefinitionInput, proposal: Proposal, accepted: ReadonlySet<string>): WorkflowDefinition {
  const proposedById = new Map(proposed.nodes.map((node) => [node.id, node as WorkflowNode]));
  const changeOf = new Map(proposal.nodes.map((change) => [change.nodeId, change]));
  const nodes: WorkflowNode[] = [];
  for (const node of current.nodes) {
    const change = changeOf.get(node.id);
    if (!change || !accepted.has(change.key)) nodes.push(node);
    else if (change.change === "changed") nodes.push({ ...proposedById.get(node.id)!, position: node.position } as WorkflowNode);
    // An accepted removal: left out.
  }
  for (const change of proposal.nodes) {
    if (change.change === "added" && accepted.has(change.key)) nodes.push(proposedById.get(change.nodeId)!);
  }
  const present = new Set(nodes.map((node) => node.id));
  const removedEdges = new Set(proposal.edges.filter((edge) => edge.change === "removed" && accepted.has(edge.key)).map((edge) => edge.key));
  const edges: WorkflowEdge[] = current.edges.filter((edge) => !removedEdges.has(edgeKey(edge)) && present.has(edge.source) && present.has(edge.target));
  const taken = new Set(edges.map((edge) => edge.id));
  for (const edge of proposal.edges) {
    if (edge.change !== "added" || !accepted.has(edge.key) || !present.has(edge.source) || !present.has(edge.target)) continue;
    let id = `e-${edge.source}-${edge.target}`.slice(0, 190);
    for (let suffix = 2; taken.has(id); suffix += 1) id = `e-${edge.source}-${edge.target}-${suffix}`.slice(0, 200);
    taken.add(id);
    edges.push({ id, source: edge.source, target: edge.target, sourceHandle: edge.sourceHandle });
  }
  const workflow = Object.fromEntries(proposal.workflow.filter((change) => accepted.has(`workflow:${change.field}`)).map((change) => [change.field, change.to]));
  return { ...current, ...workflow, nodes, edges };
}

/** Every change's key: what "Accept all" accepts. */
export function everyChange(proposal: Proposal): Set<string> {
  return new Set([...proposal.nodes.map((change) => change.key), ...proposal.edges.map((change) => change.key), ...proposal.workflow.map((change) => `workflow:${change.field}`)]);
}
