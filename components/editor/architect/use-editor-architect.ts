"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { WorkflowDefinition } from "@/lib/workflow/definition";
import { useArchitect } from "./use-architect";

type Change = (definition: WorkflowDefinition) => WorkflowDefinition;

/**
 * The Architect as the editor holds it: whether its panel is open (in the
 * inspector's place), and while a proposal is reviewed what the canvas shows
 * instead of the definition (`shown`, marked by `preview`), closed to edits.
 * Closing the panel discards a proposal not yet accepted.
 */
export function useEditorArchitect({ definition, commit, openDrawer }: { definition: WorkflowDefinition; commit: (change: Change) => void; openDrawer: () => void }) {
  const [open, setOpen] = useState(false);
  const architect = useArchitect({ definition, commit });
  const preview = open ? architect.preview : null;
  const shown = useMemo(() => (preview ? { ...definition, nodes: preview.nodes, edges: preview.edges } : definition), [preview, definition]);
  const openPanel = useCallback(() => {
    setOpen(true);
    openDrawer();
  }, [openDrawer]);
  const { discard } = architect;
  const closePanel = useCallback(() => {
    discard();
    setOpen(false);
  }, [discard]);
  return { open, openPanel, closePanel, architect, preview, shown, reviewing: preview !== null };
}

/** Brings each new proposal into view once (its new steps are laid out below what is there). */
export function useFitToProposal(reviewing: boolean, proposalState: unknown, fitView: (duration?: number) => void): void {
  const fittedFor = useRef<unknown>(null);
  useEffect(() => {
    if (!reviewing || fittedFor.current === proposalState) return;
    fittedFor.current = proposalState;
    window.requestAnimationFrame(() => fitView(300));
  }, [reviewing, proposalState, fitView]);
}
