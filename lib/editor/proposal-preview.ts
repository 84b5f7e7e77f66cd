/**
 * What the canvas shows while a person reviews the Architect's proposal: the
 * workflow as it would be after accepting the ticked changes, with every
 * change marked (added, changed, removed) and the ones left unticked still
 * drawn, faded, so nothing the draft proposes is hidden. Only a view: the
 * editor's definition changes when the person accepts (one undoable edit).
 * Pure.
 */
import { edgeKey, type ChangeKind, type Proposal } from "@/lib/architect/proposal";
import type { DraftProblem } from "@/lib/architect/draft-problems";
import type { WorkflowProblem } from "@/lib/contracts/workflow-problem";
import type { WorkflowDefinition, WorkflowDefinitionInput, WorkflowEdge, WorkflowNode } from "@/lib/workflow/definition";

/** A change as the canvas marks it: what it is, and whether it is ticked to be accepted. */
export interface ProposalMark {
  change: ChangeKind;
  accepted: boolean;
}

export interface ProposalPreview {
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
  /** Marks by node id; a node without one is unchanged. */
  nodeMarks: ReadonlyMap<string, ProposalMark>;
  /** Marks by the shown edge's id. */
  edgeMarks: ReadonlyMap<string, ProposalMark>;
  /** The draft's problems on its nodes, as the cards show problems. */
  problems: ReadonlyMap<string, readonly WorkflowProblem[]>;
}

/** The id an added edge has while it is only proposed (its key, which names its ends). */
export const proposedEdgeId = (key: string) => `proposed:${key}`;

export function proposalPreview(
  current: Pick<WorkflowDefinition, "nodes" | "edges">,
  proposed: WorkflowDefinitionInput,
  proposal: Proposal,
  accepted: ReadonlySet<string>,
  draftProblems: readonly DraftProblem[] = [],
): ProposalPreview {
  const proposedById = new Map(proposed.nodes.map((node) => [node.id, node as WorkflowNode]));
  const nodeMarks = new Map<string, ProposalMark>();
  for (const change of proposal.nodes) nodeMarks.set(change.nodeId, { change: change.change, accepted: accepted.has(change.key) });

  const nodes: WorkflowNode[] = current.nodes.map((node) => {
    const mark = nodeMarks.get(node.id);
    // A ticked change shows the step as it would be, where the card is now.
    return mark?.change === "changed" && mark.accepted ? ({ ...proposedById.get(node.id)!, position: node.position } as WorkflowNode) : node;
  });
  for (const change of proposal.nodes) if (change.change === "added") nodes.push(proposedById.get(change.nodeId)!);

  const edgeMarks = new Map<string, ProposalMark>();
  const removedEdges = new Map(proposal.edges.filter((edge) => edge.change === "removed").map((edge) => [edge.key, edge]));
  const edges: WorkflowEdge[] = current.edges.map((edge) => {
    const key = edgeKey(edge);
    if (removedEdges.has(key)) edgeMarks.set(edge.id, { change: "removed", accepted: accepted.has(key) });
    return edge;
  });
  for (const edge of proposal.edges) {
    if (edge.change !== "added") continue;
    const id = proposedEdgeId(edge.key);
    edges.push({ id, source: edge.source, target: edge.target, sourceHandle: edge.sourceHandle });
    edgeMarks.set(id, { change: "added", accepted: accepted.has(edge.key) });
  }

  const problems = new Map<string, WorkflowProblem[]>();
  const shown = new Set(nodes.map((node) => node.id));
  for (const problem of draftProblems) {
    if (problem.nodeId === null || !shown.has(problem.nodeId)) continue;
    problems.set(problem.nodeId, [...(problems.get(problem.nodeId) ?? []), { nodeId: problem.nodeId, field: problem.path, message: problem.message, severity: "error" }]);
  }
  return { nodes, edges, nodeMarks, edgeMarks, problems };
}
