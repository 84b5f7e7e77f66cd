"use client";

import {
  Background,
  BackgroundVariant,
  Controls,
  MiniMap,
  ReactFlow,
  type EdgeTypes,
  type NodeTypes,
  type ReactFlowProps,
  useStore,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useLayoutEffect, useRef, useSyncExternalStore, type CSSProperties, type DragEvent, type RefObject } from "react";
import { Spinner } from "@/components/ui/page-header";
import { FLOW_STYLE } from "@/components/flow/flow-style";
import { NodeCard } from "@/components/flow/node-card";
import { PanButtons } from "@/components/flow/pan-buttons";
import type { PaletteItem } from "@/lib/editor/definition-edits";
import { FLOW_NODE_TYPES, type FlowEdge, type FlowNode } from "@/lib/editor/to-flow";
import { EdgeInsertContext, INSERTABLE_EDGE, InsertableEdge } from "./insertable-edge";
import { PALETTE_MIME } from "./node-palette";

/** Every kind of node is drawn by the one NodeCard; defined once, so React Flow never remounts cards. */
const nodeTypes = Object.fromEntries(Object.values(FLOW_NODE_TYPES).map((type) => [type, NodeCard])) as unknown as NodeTypes;
/** Every edge carries the + that inserts a step into it. */
const edgeTypes: EdgeTypes = { [INSERTABLE_EDGE]: InsertableEdge };

/** The canvas's colours: the run view's (FLOW_STYLE), and the editor's own for selecting, connecting and the minimap. */
const THEME = {
  ...FLOW_STYLE,
  // Edges and card edges at 3:1 against the canvas (WCAG 1.4.11): they are what the workflow is made of (--xy-edge-stroke, in FLOW_STYLE).
  "--xy-edge-stroke-selected": "var(--accent)",
  "--xy-edge-stroke-width": "1.5",
  "--xy-connectionline-stroke": "var(--accent)",
  "--xy-minimap-background-color": "var(--surface)",
  "--xy-minimap-mask-background-color": "color-mix(in srgb, var(--surface-sunken) 70%, transparent)",
  "--xy-minimap-node-background-color": "var(--line-strong)",
  "--xy-selection-background-color": "color-mix(in srgb, var(--accent) 10%, transparent)",
  "--xy-selection-border": "1px dashed var(--accent)",
  "--xy-node-border-radius": "8px",
} as CSSProperties;

const DELETE_KEYS = ["Delete", "Backspace"];
const MULTI_SELECT_KEYS = ["Shift", "Meta", "Control"];
const PRO_OPTIONS = { hideAttribution: true };
const DEFAULT_EDGE_OPTIONS = { interactionWidth: 16, type: INSERTABLE_EDGE };
/** The class on the edge a palette item is dragged over (app/globals.css): dropped there, it goes into that edge. */
const DROP_TARGET_CLASS = "edge-drop-target";

/** React Flow's own props, which the canvas hands on to it as they are: the nodes and edges, and what it reports of them. */
type ForwardedProps = Required<
  Pick<ReactFlowProps<FlowNode, FlowEdge>, "nodes" | "edges" | "onNodesChange" | "onEdgesChange" | "onConnect" | "isValidConnection" | "onDelete" | "onInit" | "onNodeDragStop">
>;

interface EditorCanvasProps extends ForwardedProps {
  /** A palette item dropped at a point on the screen, onto the edge `edgeId` if it fell on one. */
  onDropItem: (item: PaletteItem, clientPoint: { x: number; y: number }, edgeId: string | null) => void;
  /** An edge's + was pressed: pick a step to insert into it. */
  onInsertOnEdge: (edgeId: string) => void;
  /** A card's menu was asked for (right click, or the context-menu key on a focused card), at a point on the screen. */
  onNodeMenu: (nodeId: string, clientPoint: { x: number; y: number }) => void;
  /** A card was tapped or clicked (not dragged), or Enter pressed on it: its settings are wanted. */
  onNodeOpen: (nodeId: string) => void;
  /** Off for very large workflows, where drawing every node twice would cost more than it shows. */
  showMiniMap: boolean;
  /** Looked at, not changed: cards stay where they are, nothing connects, deletes, drops or inserts. */
  readOnly?: boolean;
}

function readPaletteItem(event: DragEvent): PaletteItem | null {
  const raw = event.dataTransfer.getData(PALETTE_MIME);
  if (!raw) return null;
  try {
    const item = JSON.parse(raw) as PaletteItem;
    return item && typeof item === "object" && typeof item.kind === "string" ? item : null;
  } catch {
    return null;
  }
}

/** The edge under a point of the screen (its 16 px wide pointer target, or its +), or null. */
function edgeAt(point: { x: number; y: number }): SVGGElement | null {
  const element = document.elementFromPoint(point.x, point.y);
  const plus = element?.closest<HTMLElement>("[data-edge-insert]");
  if (plus) return document.querySelector<SVGGElement>(`.react-flow__edge[data-id="${CSS.escape(plus.dataset.edgeInsert ?? "")}"]`);
  return element?.closest<SVGGElement>(".react-flow__edge[data-id]") ?? null;
}

const subscribeToNothing = () => () => {};

/**
 * The canvas: React Flow drawing the nodes and edges derived from the
 * definition, nothing more. Drawn in the browser only: the server knows no
 * viewport, so it would render every card of a large workflow for nothing.
 */
export function EditorCanvas(props: EditorCanvasProps) {
  const inBrowser = useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
  if (!inBrowser) {
    return (
      <div className="flex h-full items-center justify-center bg-surface-sunken">
        <Spinner label="Drawing the workflow" />
      </div>
    );
  }
  return <FlowCanvas {...props} />;
}

/**
 * Writes the canvas's zoom into the CSS variable --flow-zoom, which keeps the
 * connection dots' pointer targets 24 px on the screen at any zoom
 * (globals.css). A DOM write, not a prop: the canvas does not re-render as
 * it zooms.
 */
function ZoomVariable({ canvas }: { canvas: RefObject<HTMLDivElement | null> }) {
  const zoom = useStore((state) => state.transform[2]);
  useLayoutEffect(() => {
    canvas.current?.style.setProperty("--flow-zoom", String(zoom));
  }, [canvas, zoom]);
  return null;
}

function FlowCanvas({ onDropItem, onInsertOnEdge, onNodeMenu, onNodeOpen, showMiniMap, readOnly = false, ...flowProps }: EditorCanvasProps) {
  const canvasRef = useRef<HTMLDivElement>(null);
  // The edge a dragged palette item is over, marked in the DOM (not state): a drag re-renders nothing.
  const dropTarget = useRef<SVGGElement | null>(null);
  const markDropTarget = (edge: SVGGElement | null) => {
    if (dropTarget.current === edge) return;
    dropTarget.current?.classList.remove(DROP_TARGET_CLASS);
    edge?.classList.add(DROP_TARGET_CLASS);
    dropTarget.current = edge;
  };
  const onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes(PALETTE_MIME)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    markDropTarget(edgeAt({ x: event.clientX, y: event.clientY }));
  };
  const onDrop = (event: DragEvent) => {
    markDropTarget(null);
    const item = readPaletteItem(event);
    if (!item) return;
    event.preventDefault();
    const point = { x: event.clientX, y: event.clientY };
    onDropItem(item, point, edgeAt(point)?.dataset.id ?? null);
  };
  return (
    <EdgeInsertContext value={readOnly ? null : onInsertOnEdge}>
      <ReactFlow<FlowNode, FlowEdge>
        ref={canvasRef}
        {...flowProps}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodeContextMenu={(event, node) => {
          event.preventDefault();
          // From the keyboard the event has no pointer position: open beside the card instead.
          const box = (event.target as HTMLElement).closest(".react-flow__node")?.getBoundingClientRect();
          const fromKeyboard = event.clientX === 0 && event.clientY === 0;
          onNodeMenu(node.id, fromKeyboard && box ? { x: box.left + 16, y: box.bottom } : { x: event.clientX, y: event.clientY });
        }}
        onNodeClick={(_event, node) => onNodeOpen(node.id)}
        onKeyDown={(event) => {
          // React Flow selects a card on Enter; the card's settings open as well, as a click on it does.
          if (event.key !== "Enter" || !(event.target instanceof HTMLElement) || !event.target.classList.contains("react-flow__node")) return;
          const nodeId = event.target.dataset.id;
          if (!nodeId) return;
          // Where the inspector is a drawer, opening it moves focus to its Close button before the browser acts on
          // this Enter: left to run, its default would press that button and shut the drawer at once.
          event.preventDefault();
          onNodeOpen(nodeId);
        }}
        onDragOver={onDragOver}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) markDropTarget(null);
        }}
        onDrop={readOnly ? undefined : onDrop}
        deleteKeyCode={readOnly ? null : DELETE_KEYS}
        nodesDraggable={!readOnly}
        nodesConnectable={!readOnly}
        selectionKeyCode="Shift"
        multiSelectionKeyCode={MULTI_SELECT_KEYS}
        onlyRenderVisibleElements
        minZoom={0.1}
        maxZoom={2}
        defaultEdgeOptions={DEFAULT_EDGE_OPTIONS}
        proOptions={PRO_OPTIONS}
        style={THEME}
        aria-label="Workflow canvas"
        className="bg-surface-sunken"
      >
        <ZoomVariable canvas={canvasRef} />
        <PanButtons />
        <Background variant={BackgroundVariant.Dots} gap={20} size={1.2} color="var(--line-strong)" />
        <Controls showInteractive={false} />
        {showMiniMap ? <MiniMap pannable zoomable ariaLabel="Overview of the workflow" className="max-lg:hidden" /> : null}
      </ReactFlow>
    </EdgeInsertContext>
  );
}
