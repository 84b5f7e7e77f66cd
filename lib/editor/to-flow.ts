import { inLoopSubtitle } from "@/lib/run-view/node-labels";
import type { Edge, Node } from "@xyflow/react";
import type { CatalogTool } from "@/lib/contracts/catalog";
import type { WorkflowDefinition, WorkflowEdge, WorkflowNode } from "@/lib/workflow/definition";
import type { WorkflowProblem } from "@/lib/contracts/workflow-problem";
import { definitionOf, executionOf, NODE_KINDS, type NodeKind } from "@/nodes/definitions";
import { isErrorEdge } from "@/lib/workflow/scheduler";
import { cardName } from "@/lib/flow/card-name";
import { CARD_HEIGHT, CARD_WIDTH, estimatedHeight } from "./auto-layout";
import { cardGeometry } from "./card-geometry";
import type { CardData } from "./card-data";
import type { ProposalMark } from "./proposal-preview";

// In its own module so card-geometry.ts can read it without importing this one back.
export type { CardData };

/**
 * The React Flow node type of each kind: `workflow-router`, …. Not the bare
 * kind: React Flow's own stylesheet draws a box around types named "input" and "output".
 */
export const FLOW_NODE_TYPES = Object.fromEntries(
  NODE_KINDS.map((kind) => [kind, `workflow-${kind}`]),
) as { readonly [Kind in NodeKind]: `workflow-${Kind}` };

export type FlowNodeType = (typeof FLOW_NODE_TYPES)[NodeKind];
export type FlowNode = Node<CardData, FlowNodeType>;
export type FlowEdge = Edge;

export interface Dimensions {
  width: number;
  height: number;
}

/**
 * What a card shows for one node: the label, else the tool's title (never its
 * name), with what the node's kind adds (nodes/<kind>/definition.ts, `card`).
 */
export function cardData(node: WorkflowNode, tool: CatalogTool | undefined, problems: readonly WorkflowProblem[] = [], loopLabel?: string): CardData {
  const kind = definitionOf(node);
  const { title, ...content } = kind.card.content(node, tool);
  return {
    kind: node.kind,
    ...(problems.length > 0 ? { problems: problems.length, problemText: problems[0]!.message } : {}),
    title: title ?? (node.label || kind.title),
    ...content,
    // A loop body's node runs once per item: its card says which loop runs it.
    ...(loopLabel !== undefined ? { subtitle: inLoopSubtitle(loopLabel) } : {}),
    ...(executionOf(node)?.onError === "error-edge" ? { errorHandle: true } : {}),
  };
}

function withMarks(data: CardData, pinned: boolean, proposed: ProposalMark | undefined): CardData {
  return pinned || proposed ? { ...data, ...(pinned ? { pinned: true } : {}), ...(proposed ? { proposed } : {}) } : data;
}

export interface FlowContext {
  tools: ReadonlyMap<string, CatalogTool>;
  /** Problems by node id. */
  problems: ReadonlyMap<string, readonly WorkflowProblem[]>;
  selected: ReadonlySet<string>;
  /** Nodes whose output is pinned (test data for the editor's test runs). */
  pinned?: ReadonlySet<string>;
  /** The label of the For each loop whose body holds each node (lib/workflow/loop-body.ts); absent: no loops. */
  loops?: ReadonlyMap<string, string>;
  /** While the Architect's proposal is reviewed: what it does to each node it changes. */
  proposal?: ReadonlyMap<string, ProposalMark>;
}

export interface FlowNodeMapper {
  map: (nodes: readonly WorkflowNode[], context: FlowContext) => FlowNode[];
  /**
   * Notes a size React Flow measured. It is passed on whenever that node's
   * object is made anew (without it React Flow would hide and measure the node
   * again), but is no reason to make a new object: React Flow holds it already.
   */
  measure: (id: string, size: Dimensions) => void;
  /** Every size noted so far. */
  sizes: () => ReadonlyMap<string, Dimensions>;
}

interface NodeEntry {
  source: WorkflowNode;
  tool: CatalogTool | undefined;
  problemCount: number;
  problemText: string | undefined;
  selected: boolean;
  pinned: boolean;
  loopLabel: string | undefined;
  proposed: ProposalMark | undefined;
  flowNode: FlowNode;
}

/**
 * Returns a mapper from workflow nodes to React Flow nodes that reuses the
 * previous object for every node whose inputs did not change, so moving or
 * selecting one node re-renders one card, not all of them.
 */
export function createFlowNodeMapper(): FlowNodeMapper {
  let cache = new Map<string, NodeEntry>();
  const measured = new Map<string, Dimensions>();
  const map = (nodes: readonly WorkflowNode[], context: FlowContext): FlowNode[] => {
    const next = new Map<string, NodeEntry>();
    const result = nodes.map((source) => {
      const tool = source.kind === "tool" ? context.tools.get(source.tool) : undefined;
      const problems = context.problems.get(source.id) ?? [];
      const problemText = problems[0]?.message;
      const selected = context.selected.has(source.id);
      const pinned = context.pinned?.has(source.id) ?? false;
      const loopLabel = context.loops?.get(source.id);
      const proposed = context.proposal?.get(source.id);
      const previous = cache.get(source.id);
      let entry: NodeEntry;
      if (
        previous &&
        previous.source === source &&
        previous.tool === tool &&
        previous.problemCount === problems.length &&
        previous.problemText === problemText &&
        previous.selected === selected &&
        previous.pinned === pinned &&
        previous.loopLabel === loopLabel &&
        sameMark(previous.proposed, proposed)
      ) {
        entry = previous;
      } else {
        const sameData =
          previous &&
          previous.tool === tool &&
          previous.problemCount === problems.length &&
          previous.problemText === problemText &&
          previous.pinned === pinned &&
          previous.loopLabel === loopLabel &&
          sameMark(previous.proposed, proposed) &&
          sameCardInputs(previous.source, source);
        const data = sameData ? previous.flowNode.data : withMarks(cardData(source, tool, problems, loopLabel), pinned, proposed);
        const size = measured.get(source.id);
        const geometry = size ? null : cardGeometry(data);
        const flowNode: FlowNode = {
          id: source.id,
          type: FLOW_NODE_TYPES[source.kind],
          position: source.position,
          data,
          // The card's accessible name (without it React Flow's group for the node has none): title, tool or kind, problems.
          ariaLabel: cardName({ kind: source.kind, title: data.title, toolTitle: tool?.title, problems: problems.length, pinned, proposed }),
          selected,
          // Until a card is drawn its size and dots are estimated (lib/editor/card-geometry.ts): React Flow then
          // mounts only the cards in view, not every card to measure it, and draws their edges at once;
          // the minimap and fit view account for the cards off screen. Once drawn, what was measured counts.
          ...(geometry ? { initialWidth: geometry.width, initialHeight: geometry.height, handles: geometry.handles } : { initialWidth: size!.width, initialHeight: size!.height, measured: size }),
        };
        entry = { source, tool, problemCount: problems.length, problemText, selected, pinned, loopLabel, proposed, flowNode };
      }
      next.set(source.id, entry);
      return entry.flowNode;
    });
    cache = next;
    return result;
  };
  return {
    map,
    measure: (id, size) => {
      const known = measured.get(id);
      if (!known || known.width !== size.width || known.height !== size.height) measured.set(id, { width: size.width, height: size.height });
    },
    sizes: () => measured,
  };
}

const sameMark = (a: ProposalMark | undefined, b: ProposalMark | undefined) => a?.change === b?.change && a?.accepted === b?.accepted;

/** Whether two versions of a node show the same card (only its position may differ). */
function sameCardInputs(a: WorkflowNode, b: WorkflowNode): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind || a.label !== b.label) return false;
  if (executionOf(a)?.onError !== executionOf(b)?.onError) return false;
  return definitionOf(b).card.sameContent(a, b);
}

interface EdgeEntry {
  source: WorkflowEdge;
  selected: boolean;
  label: string | undefined;
  proposed: ProposalMark | undefined;
  flowEdge: FlowEdge;
}

/**
 * Like {@link createFlowNodeMapper}, for edges; `labelOf` names each for screen readers,
 * `proposal` marks what the Architect's proposal adds or removes while it is reviewed.
 */
export function createFlowEdgeMapper(): (
  edges: readonly WorkflowEdge[],
  selected: ReadonlySet<string>,
  labelOf?: (edge: WorkflowEdge) => string,
  proposal?: ReadonlyMap<string, ProposalMark>,
) => FlowEdge[] {
  let cache = new Map<string, EdgeEntry>();
  return (edges, selectedEdges, labelOf, proposal) => {
    const next = new Map<string, EdgeEntry>();
    const result = edges.map((source) => {
      const selected = selectedEdges.has(source.id);
      const label = labelOf?.(source);
      const proposed = proposal?.get(source.id);
      const previous = cache.get(source.id);
      const entry =
        previous && previous.source === source && previous.selected === selected && previous.label === label && sameMark(previous.proposed, proposed)
          ? previous
          : { source, selected, label, proposed, flowEdge: toFlowEdge(source, selected, label, proposed) };
      next.set(source.id, entry);
      return entry.flowEdge;
    });
    cache = next;
    return result;
  };
}

/**
 * An error edge is drawn dashed and red (the `error-edge` class in app/globals.css); one the
 * Architect proposes to add or remove, by its `proposed-*` classes there.
 */
export function toFlowEdge(edge: WorkflowEdge, selected = false, label?: string, proposed?: ProposalMark): FlowEdge {
  const classes = [isErrorEdge(edge) ? "error-edge" : null, proposed ? `proposed-${proposed.change}` : null, proposed && !proposed.accepted ? "proposed-declined" : null].filter(Boolean);
  const proposalWords = proposed ? `, proposed to be ${proposed.change}${proposed.accepted ? "" : " (not ticked)"}` : "";
  return {
    id: edge.id,
    source: edge.source,
    target: edge.target,
    ...(edge.sourceHandle ? { sourceHandle: edge.sourceHandle } : {}),
    ...(label ? { ariaLabel: `${label}${proposalWords}` } : {}),
    ...(classes.length > 0 ? { className: classes.join(" ") } : {}),
    selected,
  };
}

/** The rectangle around every node, with measured sizes where known and estimates elsewhere. */
export function definitionBounds(
  definition: Pick<WorkflowDefinition, "nodes">,
  measured: ReadonlyMap<string, Dimensions> = new Map(),
): { x: number; y: number; width: number; height: number } | null {
  if (definition.nodes.length === 0) return null;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const node of definition.nodes) {
    const size = measured.get(node.id) ?? { width: CARD_WIDTH, height: node.kind === "router" ? estimatedHeight(node) : CARD_HEIGHT };
    minX = Math.min(minX, node.position.x);
    minY = Math.min(minY, node.position.y);
    maxX = Math.max(maxX, node.position.x + size.width);
    maxY = Math.max(maxY, node.position.y + size.height);
  }
  return { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}
