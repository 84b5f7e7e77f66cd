"use client";

import { useReactFlow } from "@xyflow/react";
import { useCallback, type RefObject } from "react";
import { autoLayout, CARD_HEIGHT, CARD_WIDTH } from "@/lib/editor/auto-layout";
import { definitionBounds, type FlowEdge, type FlowNode } from "@/lib/editor/to-flow";
import { readableViewport } from "@/lib/flow/readable-viewport";
import type { WorkflowDefinition } from "@/lib/workflow/definition";

/**
 * Where the editor opens: the whole workflow when it fits at a readable zoom,
 * else its first cards (at 0.75 on a wide canvas, 0.6 on a phone's, where
 * 0.75 showed one card and a half).
 */
const OPENING_VIEW = { readableZoom: 0.5, startZoom: 0.75, maxZoom: 1, padding: 0.075 } as const;
const NARROW_OPENING_VIEW = { ...OPENING_VIEW, startZoom: 0.6 } as const;
/** Canvases narrower than this (a phone) open and fit to a readable view, never to the whole at any zoom. */
const NARROW_CANVAS = 640;

interface CanvasViewOptions {
  /** The definition the editor opened with: the first view is made from it. */
  loaded: WorkflowDefinition;
  definition: WorkflowDefinition;
  canvasRef: RefObject<HTMLDivElement | null>;
  /** The card sizes React Flow measured (cards not drawn yet count at their default size). */
  sizes: () => ReadonlyMap<string, { width: number; height: number }>;
  commit: (change: (definition: WorkflowDefinition) => WorkflowDefinition) => void;
  selectNode: (nodeId: string) => void;
}

/** What the editor's view does: its opening view, Fit view, Go to node, and Auto-layout (which fits what it laid out). */
export function useCanvasView({ loaded, definition, canvasRef, sizes, commit, selectNode }: CanvasViewOptions) {
  const { fitBounds, setViewport, setCenter, getZoom } = useReactFlow<FlowNode, FlowEdge>();

  const onInit = useCallback(() => {
    const bounds = definitionBounds(loaded);
    const rect = canvasRef.current?.getBoundingClientRect();
    if (!bounds || !rect) return;
    const { whole: _whole, ...viewport } = readableViewport(bounds, rect, rect.width < NARROW_CANVAS ? NARROW_OPENING_VIEW : OPENING_VIEW);
    void setViewport(viewport);
  }, [loaded, canvasRef, setViewport]);

  const fitView = useCallback(
    (duration = 200) => {
      const bounds = definitionBounds(definition, sizes());
      const rect = canvasRef.current?.getBoundingClientRect();
      if (!bounds || !rect) return;
      // On a phone the whole of a longer workflow is 0.3 and unreadable: Fit view shows as much as reads, from the start.
      if (rect.width < NARROW_CANVAS) {
        const { whole: _whole, ...viewport } = readableViewport(bounds, rect, { ...NARROW_OPENING_VIEW, startZoom: OPENING_VIEW.readableZoom });
        void setViewport(viewport, { duration });
      } else void fitBounds(bounds, { padding: 0.15, duration });
    },
    [definition, sizes, canvasRef, fitBounds, setViewport],
  );

  /**
   * Go to node…: the node in the middle of the view at a readable size,
   * selected, and its card focused once React Flow has drawn it (cards out
   * of view are not in the page until they scroll in).
   */
  const goToNode = useCallback(
    (nodeId: string) => {
      const node = definition.nodes.find((each) => each.id === nodeId);
      if (!node) return;
      const size = sizes().get(nodeId) ?? { width: CARD_WIDTH, height: CARD_HEIGHT };
      void setCenter(node.position.x + size.width / 2, node.position.y + size.height / 2, { zoom: Math.max(getZoom(), 0.75), duration: 0 });
      selectNode(nodeId);
      let frames = 0;
      const focusCard = () => {
        const card = canvasRef.current?.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(nodeId)}"]`);
        // The dialog gives focus back to its opener as it closes: the card takes it after that.
        if (card && !window.document.querySelector("dialog[open]")) card.focus();
        else if (frames++ < 60) window.requestAnimationFrame(focusCard);
      };
      window.requestAnimationFrame(focusCard);
    },
    [definition.nodes, sizes, canvasRef, setCenter, getZoom, selectNode],
  );

  const autoLayoutAndFit = useCallback(() => {
    const laidOut = autoLayout(definition);
    commit(() => laidOut);
    const bounds = definitionBounds(laidOut, sizes());
    if (bounds) window.requestAnimationFrame(() => void fitBounds(bounds, { padding: 0.15, duration: 300 }));
  }, [definition, commit, fitBounds, sizes]);

  return { onInit, fitView, goToNode, autoLayoutAndFit };
}
