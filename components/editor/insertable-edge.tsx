"use client";

import { BaseEdge, EdgeLabelRenderer, getBezierPath, useStore, type EdgeProps } from "@xyflow/react";
import { createContext, memo, useContext, useEffect, useRef, useState, type RefObject } from "react";

/** Opens the step picker for an edge: the editor's, given to every edge of its canvas. */
export const EdgeInsertContext = createContext<((edgeId: string) => void) | null>(null);

/** The React Flow edge type the editor draws its edges with (editor-canvas.tsx). */
export const INSERTABLE_EDGE = "insertable";

/**
 * An edge with a + in its middle that puts a step between the two cards it
 * joins, as n8n's connections have. The + shows while the pointer is over the
 * edge or the + itself, while the edge is selected or has keyboard focus, and
 * while the + has focus: it is a real button, so Tab reaches it (after the
 * edges, before the cards, as React Flow lays out its layers) and Enter or
 * Space opens the same picker the palette lists.
 */
export const InsertableEdge = memo(function InsertableEdge(props: EdgeProps) {
  const { id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, markerEnd, style, interactionWidth, selected } = props;
  const [path, labelX, labelY] = getBezierPath({ sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition });
  const openPicker = useContext(EdgeInsertContext);
  const edgeName = useStore((state) => state.edgeLookup.get(id)?.ariaLabel);
  const [pointerOver, setPointerOver] = useState(false);
  const edgeGroup = useRef<SVGGElement>(null);
  const edgeFocused = useParentFocus(edgeGroup);
  const shown = pointerOver || selected || edgeFocused;

  return (
    <>
      <g ref={edgeGroup} onPointerEnter={() => setPointerOver(true)} onPointerLeave={() => setPointerOver(false)}>
        <BaseEdge id={id} path={path} markerEnd={markerEnd} style={style} interactionWidth={interactionWidth} />
      </g>
      {openPicker ? (
        <EdgeLabelRenderer>
          <button
            type="button"
            data-edge-insert={id}
            aria-label={`Insert a step into the ${edgeName ? lowerFirst(edgeName) : "connection"}`}
            title="Insert a step here"
            onClick={() => openPicker(id)}
            onPointerEnter={() => setPointerOver(true)}
            onPointerLeave={() => setPointerOver(false)}
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
            className={`nodrag nopan pointer-events-auto absolute flex size-6 items-center justify-center rounded-full border border-accent bg-surface text-accent shadow-card transition-opacity hover:bg-accent hover:text-accent-foreground focus-visible:opacity-100 ${shown ? "opacity-100" : "opacity-0"}`}
          >
            <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
              <path d="M8 3v10M3 8h10" />
            </svg>
          </button>
        </EdgeLabelRenderer>
      ) : null}
    </>
  );
});

/** Whether the element around `ref` (React Flow's focusable wrapper of the edge) has focus; React Flow gives it no prop for that. */
function useParentFocus(ref: RefObject<SVGGElement | null>): boolean {
  const [focused, setFocused] = useState(false);
  useEffect(() => {
    const wrapper = ref.current?.parentElement;
    if (!wrapper) return;
    const onFocus = () => setFocused(true);
    const onBlur = () => setFocused(false);
    wrapper.addEventListener("focus", onFocus);
    wrapper.addEventListener("blur", onBlur);
    return () => {
      wrapper.removeEventListener("focus", onFocus);
      wrapper.removeEventListener("blur", onBlur);
    };
  }, [ref]);
  return focused;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
