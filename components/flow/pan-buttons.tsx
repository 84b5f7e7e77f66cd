"use client";

import { useReactFlow, useStore, type Node, type ReactFlowState } from "@xyflow/react";
import { useMemo } from "react";

/**
 * Arrows at the canvas's left and right edges while cards lie beyond them:
 * on a phone a readable zoom shows two cards of a longer workflow, and
 * nothing else said there was more, or how to get to it without knowing to
 * drag the background. A press moves the view most of a screen along. Drawn
 * inside <ReactFlow>, from its store: no re-render of the canvas as it pans.
 */

/** Cards React Flow has not measured yet (out of view, not drawn) count at the cards' usual size. */
const USUAL_WIDTH = 240;
/** How far past the edge a card must lie to count as out of view, in screen pixels (the padding of a fitted view is not "more"). */
const SLACK = 8;
/** A press moves the view this share of the canvas's width. */
const STEP = 0.8;
/** Wider canvases have the minimap (the editor) and room to show a workflow whole: the arrows are for narrow ones. */
const NARROW_CANVAS = 768;

/** Where the cards begin and end along the canvas, in flow coordinates; null without cards. */
function horizontalExtent(nodes: readonly Node[]): { left: number; right: number } | null {
  if (nodes.length === 0) return null;
  let left = Infinity;
  let right = -Infinity;
  for (const node of nodes) {
    left = Math.min(left, node.position.x);
    right = Math.max(right, node.position.x + (node.measured?.width ?? node.width ?? USUAL_WIDTH));
  }
  return { left, right };
}

const selectNodes = (state: ReactFlowState) => state.nodes;
const selectView = (state: ReactFlowState) => `${state.transform[0]} ${state.transform[2]} ${state.width}`;

export function PanButtons() {
  const nodes = useStore(selectNodes);
  const extent = useMemo(() => horizontalExtent(nodes), [nodes]);
  // One string, so the buttons re-render when the view moves sideways or zooms, not when anything else in the store does.
  const [x = 0, zoom = 1, width = 0] = useStore(selectView).split(" ").map(Number);
  const { getViewport, setViewport } = useReactFlow();
  if (!extent || width === 0 || width >= NARROW_CANVAS) return null;
  const moreLeft = extent.left * zoom + x < -SLACK;
  const moreRight = extent.right * zoom + x > width + SLACK;
  const pan = (direction: 1 | -1) => {
    const viewport = getViewport();
    void setViewport({ ...viewport, x: viewport.x - direction * width * STEP }, { duration: 250 });
  };
  if (!moreLeft && !moreRight) return null;
  const button =
    "flex size-10 items-center justify-center rounded-full border border-line-strong bg-surface text-lg text-foreground shadow-card-raised hover:bg-surface-sunken";
  // At the bottom right, clear of the cards (a workflow opens centred top to bottom), the zoom controls at the left and the attribution below.
  return (
    <div className="absolute bottom-8 right-3 z-10 flex gap-2">
      {moreLeft ? (
        <button type="button" className={button} onClick={() => pan(-1)} aria-label="Show the cards to the left" title="Show the cards to the left">
          <span aria-hidden="true">←</span>
        </button>
      ) : null}
      {moreRight ? (
        <button type="button" className={button} onClick={() => pan(1)} aria-label="Show the cards to the right" title="Show the cards to the right">
          <span aria-hidden="true">→</span>
        </button>
      ) : null}
    </div>
  );
}
