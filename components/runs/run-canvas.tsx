"use client";

import "@xyflow/react/dist/style.css";
import { Background, Controls, ReactFlow, type Edge, type Node, type NodeChange, type NodeTypes, type ReactFlowInstance, type ReactFlowProps } from "@xyflow/react";
import { useCallback, useMemo, useRef, useState } from "react";
import { NodeCard, type NodeCardData } from "@/components/flow/node-card";
import { FLOW_STYLE } from "@/components/flow/flow-style";
import { PanButtons } from "@/components/flow/pan-buttons";
import { useHydrated } from "@/components/ui/use-format-time";
import { definitionBounds } from "@/lib/editor/to-flow";
import { readableViewport } from "@/lib/flow/readable-viewport";
import type { StepView } from "@/lib/run-view/apply-event";
import { edgeLabel, type NodeNames } from "@/lib/editor/connection-choices";
import { cardName } from "@/lib/flow/card-name";
import { describeAttempts } from "@/lib/run-view/attempts";
import { inLoopSubtitle, nodeLabel, nodeSubtitle, routerOutputs } from "@/lib/run-view/node-labels";
import { enclosingLoops } from "@/lib/workflow/loop-body";
import { shortRunId } from "@/lib/run-view/run-lineage";
import { stepStatusWords } from "@/lib/run-view/status-words";
import type { ToolTitles } from "@/lib/run-view/tool-titles";
import { executionPolicyOf } from "@/lib/contracts/execution-settings";
import type { WorkflowDefinition, WorkflowNode } from "@/lib/workflow/definition";
import { isErrorEdge } from "@/lib/workflow/scheduler";
import { executionOf } from "@/nodes/definitions";

type RunNode = Node<NodeCardData, "card">;

// Module scope: a new object on each render would remount every node.
const NODE_TYPES: NodeTypes = { card: NodeCard };
/**
 * Below 0.6 the cards are unreadable: a run that fits above it opens whole,
 * with room around it; a longer one opens on its first steps, the rest a pan
 * (or the arrows at the edges) away. On a phone the step list and the
 * timeline, above the canvas there, tell the whole run in words.
 */
const OPENING_VIEW = { readableZoom: 0.6, startZoom: 0.6, maxZoom: 1.1, padding: 0.1 } as const;
/**
 * What a screen reader is told about the run's canvas. React Flow's defaults speak of moving and deleting
 * nodes, which this read-only view does not allow: here a node is chosen to see its result.
 */
const RUN_VIEW_ARIA_LABELS = {
  "node.a11yDescription.default": "Press Enter or Space to see this step's result.",
  "node.a11yDescription.keyboardDisabled": "Press Enter or Space to see this step's result.",
} as const;
/**
 * The run canvas's fixed settings, the same on every render: a view to look at (no card dragged, connected, deleted
 * or box-selected; choosing one shows its result), drawing only the cards in view.
 */
const RUN_FLOW_SETTINGS = {
  nodeTypes: NODE_TYPES,
  nodesDraggable: false,
  nodesConnectable: false,
  edgesFocusable: false,
  elementsSelectable: true,
  onlyRenderVisibleElements: true,
  minZoom: 0.1,
  colorMode: "system",
  style: FLOW_STYLE,
  proOptions: { hideAttribution: false },
  deleteKeyCode: null,
  selectionKeyCode: null,
  multiSelectionKeyCode: null,
  ariaLabelConfig: RUN_VIEW_ARIA_LABELS,
} as const satisfies Partial<ReactFlowProps<RunNode, Edge>>;

interface RunCanvasProps {
  definition: WorkflowDefinition;
  steps: Readonly<Record<string, StepView>>;
  toolTitles: ToolTitles;
  selectedNodeId: string | null;
  onSelect: (nodeId: string | null) => void;
  /** The view's ticking clock, for the countdown of a step waiting for its next attempt. */
  now: number;
  /** Whether what the run waits for is the reader's to decide (else a waiting step waits "for approval"). */
  forYou?: boolean;
}

function staticData(node: WorkflowNode, titles: ToolTitles, loopLabel: string | undefined, forYou: boolean): NodeCardData {
  const tool = node.kind === "tool" ? titles[node.tool] : undefined;
  const outputs = routerOutputs(node);
  // A loop body's node runs once per item, in the item's run: its card says so.
  const subtitle = loopLabel !== undefined ? inLoopSubtitle(loopLabel) : nodeSubtitle(node, titles);
  return {
    kind: node.kind,
    title: nodeLabel(node, titles),
    ...(subtitle ? { subtitle } : {}),
    ...(tool ? { icon: tool.icon, domain: tool.domain } : {}),
    ...(outputs ? { outputs } : {}),
    hasInput: node.kind !== "input",
    hasOutput: node.kind !== "output",
    ...(executionOf(node)?.onError === "error-edge" ? { errorHandle: true } : {}),
    ...(loopLabel !== undefined ? { inLoop: true } : {}),
    ...(forYou ? {} : { notForReader: true }),
  };
}

/**
 * Canvas nodes by the step state they show. The reducer keeps a step's object
 * while nothing about it changes, so an unchanged step finds its node here
 * and React Flow and the memoised card skip it.
 */
const NODE_CACHE = new WeakMap<StepView, { base: NodeCardData; selected: boolean; node: RunNode }>();

function runNode(
  node: WorkflowNode,
  base: NodeCardData,
  step: StepView | undefined,
  selected: boolean,
  attempts: string | null,
  toolTitle: string | undefined,
  measured: { width: number; height: number } | undefined,
): RunNode {
  const cached = step ? NODE_CACHE.get(step) : undefined;
  // A step waiting for its next attempt counts down: its card alone is made anew each second.
  if (cached && cached.base === base && cached.selected === selected && step?.status !== "retrying") return cached.node;
  const status = step?.status ?? "pending";
  const progress = status === "retrying" ? (attempts ?? undefined) : status === "running" || status === "waiting" ? (step?.progress ?? attempts ?? undefined) : undefined;
  const carriedFrom = step ? keptFromText(step) : undefined;
  const data: NodeCardData = { ...base, status, ...(progress ? { progress } : {}), ...(carriedFrom ? { carriedFrom } : {}) };
  const created: RunNode = {
    id: node.id,
    type: "card",
    position: node.position,
    data,
    selected,
    draggable: false,
    connectable: false,
    // The size React Flow measured, carried over: a node object without it is hidden until measured again, so every
    // change of status would blink the card out, and on a busy machine could leave it hidden while the run goes on.
    ...(measured ? { measured } : {}),
    ariaLabel: cardName({
      kind: node.kind,
      title: data.title,
      toolTitle,
      status: `${stepStatusWords(status, node.kind, { inLoop: base.inLoop === true, forYou: base.notForReader !== true })}${progress && status === "retrying" ? `: ${progress}` : ""}${carriedFrom ? `, kept ${carriedFrom}` : ""}`,
    }),
  };
  if (step) NODE_CACHE.set(step, { base, selected, node: created });
  return created;
}

/** The canvas before hydration: empty (see RunCanvas). */
const NOTHING_YET: { nodes: RunNode[]; edges: Edge[] } = { nodes: [], edges: [] };

/**
 * The pinned definition, read-only, with each node's live status. Node
 * objects are reused while their status, progress and selection stay the
 * same, so an event about one node re-renders that node only.
 */
export function RunCanvas({ definition, steps, toolTitles, selectedNodeId, onSelect, now, forYou = true }: RunCanvasProps) {
  const base = useMemo(() => {
    const loops = enclosingLoops(definition);
    const byId = new Map(definition.nodes.map((node) => [node.id, node]));
    const loopLabelOf = (nodeId: string) => {
      const loop = byId.get(loops.get(nodeId) ?? "");
      return loop ? nodeLabel(loop, toolTitles) : undefined;
    };
    return new Map(definition.nodes.map((node) => [node.id, staticData(node, toolTitles, loopLabelOf(node.id), forYou)]));
  }, [definition, toolTitles, forYou]);
  const attemptsAllowed = useMemo(
    () => new Map(definition.nodes.map((node) => [node.id, executionPolicyOf({ execution: executionOf(node) }, definition).maxAttempts])),
    [definition],
  );
  // Each card's size as React Flow last measured it (its "dimensions" changes), for the node objects made anew.
  const [measuredSizes, setMeasuredSizes] = useState<ReadonlyMap<string, { width: number; height: number }>>(() => new Map());
  const anyRetrying = Object.values(steps).some((step) => step.status === "retrying");
  const clock = anyRetrying ? now : 0;
  const nodes = useMemo(
    () =>
      definition.nodes.map((node) => {
        const step = steps[node.id];
        const attempts = step ? describeAttempts(step, attemptsAllowed.get(node.id) ?? 1, clock, { compact: true }) : null;
        const toolTitle = node.kind === "tool" ? toolTitles[node.tool]?.title : undefined;
        return runNode(node, base.get(node.id)!, step, node.id === selectedNodeId, attempts, toolTitle, measuredSizes.get(node.id));
      }),
    [definition, steps, base, selectedNodeId, attemptsAllowed, clock, toolTitles, measuredSizes],
  );

  // Edges are named by the cards they join, not by node ids, as in the editor.
  const names = useMemo<NodeNames>(
    () => ({
      titleOf: (nodeId) => base.get(nodeId)?.title ?? nodeId,
      outputsOf: (nodeId) => base.get(nodeId)?.outputs ?? [],
      hasErrorPath: (nodeId) => base.get(nodeId)?.errorHandle === true,
    }),
    [base],
  );
  const edges = useMemo<Edge[]>(
    () =>
      definition.edges.map((edge) => {
        const ariaLabel = edgeLabel(names, edge);
        const targetStatus = steps[edge.target]?.status;
        const source = steps[edge.source];
        if (isErrorEdge(edge)) {
          // Dashed and red (app/globals.css); bolder once a failure took it. Never animated: the dashes say what it is.
          const taken = source?.status === "failed" && source.handledBy === "error-edge" && targetStatus !== "skipped";
          return {
            id: edge.id,
            source: edge.source,
            target: edge.target,
            sourceHandle: edge.sourceHandle,
            ariaLabel: taken ? `${ariaLabel}, taken` : ariaLabel,
            className: taken ? "error-edge taken" : "error-edge",
            focusable: false,
          };
        }
        const live = (source?.status === "succeeded" || (source?.status === "failed" && source.handledBy === "continue")) && targetStatus !== "skipped";
        return {
          id: edge.id,
          source: edge.source,
          target: edge.target,
          sourceHandle: edge.sourceHandle,
          ariaLabel,
          animated: targetStatus === "running" || targetStatus === "waiting",
          style: live ? { stroke: "var(--accent)", strokeWidth: 1.75 } : { stroke: "var(--line-control)" },
          focusable: false,
        };
      }),
    [definition, steps, names],
  );

  // From the definition's positions, not React Flow's measurements: it draws only the cards in view, so a fit from its
  // measurements counted the cards beyond the first screen at no size and cut them off at the edges.
  const box = useRef<HTMLDivElement>(null);
  const onInit = useCallback(
    (flow: ReactFlowInstance<RunNode, Edge>) => {
      const bounds = definitionBounds(definition);
      const rect = box.current?.getBoundingClientRect();
      if (!bounds || !rect) return;
      const { whole: _whole, ...viewport } = readableViewport(bounds, rect, OPENING_VIEW);
      void flow.setViewport(viewport);
    },
    [definition],
  );

  const onNodesChange = useCallback(
    (changes: NodeChange<RunNode>[]) => {
      const sizes = changes.flatMap((change) => (change.type === "dimensions" && change.dimensions ? [[change.id, change.dimensions] as const] : []));
      if (sizes.length > 0) setMeasuredSizes((current) => new Map([...current, ...sizes]));
      // Clicks and keyboard (Enter on a focused node) arrive as select changes.
      for (const change of changes) {
        if (change.type === "select" && change.selected) onSelect(change.id);
      }
    },
    [onSelect],
  );

  // The cards are drawn in the browser only: on the server React Flow knows no viewport, so it rendered every card of
  // the run into the HTML (a 2,000-node run's page was 7 MB, most of it cards out of view), and the browser then
  // hydrated them all. In the browser it draws the cards in view (onlyRenderVisibleElements).
  const hydrated = useHydrated();

  return (
    <div ref={box} className="h-full w-full" aria-label="The workflow's canvas; choose a node to see its result" role="region">
      <ReactFlow<RunNode, Edge>
        {...RUN_FLOW_SETTINGS}
        nodes={hydrated ? nodes : NOTHING_YET.nodes}
        edges={hydrated ? edges : NOTHING_YET.edges}
        onNodesChange={onNodesChange}
        onPaneClick={() => onSelect(null)}
        onInit={onInit}
      >
        <Background gap={20} size={1} />
        <Controls showInteractive={false} />
        <PanButtons />
      </ReactFlow>
    </div>
  );
}

/** Where a kept step's result came from, as its card says it: "from run #K8R1T6", "from its pin", "from typed values". */
function keptFromText(step: StepView): string | undefined {
  if (step.carriedAs === "pin") return "from its pin";
  if (step.carriedAs === "typed") return "from typed values";
  return step.carriedFrom ? `from run ${shortRunId(step.carriedFrom)}` : undefined;
}
