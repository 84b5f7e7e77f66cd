"use client";

import { useCallback, useState } from "react";
import type { CatalogTool } from "@/lib/contracts/catalog";
import type { PaletteItem } from "@/lib/editor/definition-edits";
import { insertOnEdge } from "@/lib/editor/insert-on-edge";
import type { Dimensions } from "@/lib/editor/to-flow";
import type { WorkflowDefinition } from "@/lib/workflow/definition";

interface EdgeInsertionOptions {
  definition: WorkflowDefinition;
  tools: ReadonlyMap<string, CatalogTool>;
  /** The card sizes React Flow measured, so the new step clears the card before it. */
  sizes: () => ReadonlyMap<string, Dimensions>;
  commit: (change: (current: WorkflowDefinition) => WorkflowDefinition) => void;
  /** Selects the new step, so the inspector opens on it. */
  selectNode: (nodeId: string) => void;
}

/**
 * Putting a step into an edge, from its + (through the step picker) or by
 * dropping a palette item on it: one undo step each (lib/editor/insert-on-edge.ts).
 * `pickingFor` is the edge whose picker is open; `problem` why the last pick could not go in.
 */
export function useEdgeInsertion({ definition, tools, sizes, commit, selectNode }: EdgeInsertionOptions) {
  const [pickingFor, setPickingFor] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  /** Inserts `item` into `edgeId`; the reason it cannot, else null. */
  const insert = useCallback(
    (edgeId: string, item: PaletteItem): string | null => {
      const result = insertOnEdge(definition, edgeId, item, tools, sizes());
      if ("refused" in result) return result.refused;
      commit(() => result.definition);
      selectNode(result.nodeId);
      return null;
    },
    [definition, tools, sizes, commit, selectNode],
  );

  // Stable: every edge of the canvas holds it, and a new one would re-render them all.
  const openPicker = useCallback((edgeId: string) => {
    setProblem(null);
    setPickingFor(edgeId);
  }, []);
  const closePicker = useCallback(() => setPickingFor(null), []);
  const pick = useCallback(
    (item: PaletteItem) => {
      if (pickingFor === null) return;
      const refused = insert(pickingFor, item);
      setProblem(refused);
      if (refused === null) setPickingFor(null);
    },
    [pickingFor, insert],
  );

  return { insert, openPicker, closePicker, pick, pickingFor, problem };
}
