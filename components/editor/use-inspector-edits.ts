"use client";

import { useCallback, useMemo } from "react";
import { replaceNode } from "@/lib/editor/definition-edits";
import type { WorkflowNode } from "@/lib/workflow/definition";
import type { InspectorEdits } from "./inspector-panel";
import type { EditorDocument } from "./use-editor-document";
import type { WorkflowSettings } from "./workflow-settings-panel";

const NONE: ReadonlySet<string> = new Set();

interface InspectorEditsOptions {
  /** The node the inspector shows (exactly one is selected), else undefined. */
  selectedId: string | undefined;
  selectedNodes: ReadonlySet<string>;
  selectedEdges: ReadonlySet<string>;
  commit: EditorDocument["commit"];
  select: (nodeIds: ReadonlySet<string>) => void;
  connect: InspectorEdits["connect"];
  deleteElements: (nodeIds: ReadonlySet<string>, edgeIds: ReadonlySet<string>) => void;
}

/**
 * What the inspector panel may change, each an undo step of the editor's `commit` (a node's edits merge under its id,
 * the workflow settings' under the setting's name). Each function keeps its identity while what it uses does, and the
 * object while they all do: the panel is memoised.
 */
export function useInspectorEdits({ selectedId, selectedNodes, selectedEdges, commit, select, connect, deleteElements }: InspectorEditsOptions): InspectorEdits {
  const changeNode = useCallback(
    (node: WorkflowNode) => {
      if (selectedId === undefined) return;
      commit((current) => replaceNode(current, selectedId, node), `node:${selectedId}`);
      if (node.id !== selectedId) select(new Set([node.id]));
    },
    [selectedId, commit, select],
  );

  const removeEdge = useCallback((edgeId: string) => deleteElements(NONE, new Set([edgeId])), [deleteElements]);

  const deleteSelection = useCallback(() => deleteElements(selectedNodes, selectedEdges), [deleteElements, selectedNodes, selectedEdges]);

  const changeSettings = useCallback(
    <Key extends keyof WorkflowSettings>(key: Key, value: WorkflowSettings[Key]) => {
      commit((current) => (current[key] === value ? current : { ...current, [key]: value }), `workflow:${key}`);
    },
    [commit],
  );

  return useMemo(
    () => ({ changeNode, deleteSelection, connect, removeEdge, changeSettings }),
    [changeNode, deleteSelection, connect, removeEdge, changeSettings],
  );
}
