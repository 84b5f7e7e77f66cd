"use client";

import type { Connection, Edge, EdgeChange, NodeChange } from "@xyflow/react";
import { useCallback, useState } from "react";
import { connectionMadeText, definitionNames } from "@/lib/editor/announcements";
import type { Point } from "@/lib/editor/auto-layout";
import { addEdge, edgeForConnection, moveNodes, removeElements, type Connection as NodeConnection } from "@/lib/editor/definition-edits";
import type { FlowEdge, FlowNode, FlowNodeMapper } from "@/lib/editor/to-flow";
import type { CatalogTool } from "@/lib/contracts/catalog";
import type { WorkflowDefinition } from "@/lib/workflow/definition";

type Change = (definition: WorkflowDefinition) => WorkflowDefinition;

const NONE: ReadonlySet<string> = new Set();

interface CanvasChangesOptions {
  definition: WorkflowDefinition;
  tools: ReadonlyMap<string, CatalogTool>;
  /** One undo step; `preview` shows a gesture's step at once and `settle` records it when the gesture ends. */
  commit: (change: Change) => void;
  preview: (change: Change) => void;
  settle: () => void;
  /** Where the sizes React Flow measures are kept (not in state: a card scrolling into view re-renders nothing). */
  nodeMapper: FlowNodeMapper;
  /** Said to a screen reader: a connection made moves no focus. */
  announce: (text: string) => void;
  /** Shown to the person: why a connection was refused. */
  notify: (text: string) => void;
}

/**
 * What the editor's canvas changes, as React Flow reports it: nodes moved
 * (one undo step per drag), what is selected, connections made (checked,
 * announced) and elements deleted (with their edges, as one undo step).
 */
export function useCanvasChanges({ definition, tools: toolsByName, commit, preview, settle, nodeMapper, announce, notify }: CanvasChangesOptions) {
  const [selectedNodes, setSelectedNodes] = useState<ReadonlySet<string>>(NONE);
  const [selectedEdges, setSelectedEdges] = useState<ReadonlySet<string>>(NONE);

  const select = useCallback((nodeIds: ReadonlySet<string>, edgeIds: ReadonlySet<string> = NONE) => {
    setSelectedNodes(nodeIds);
    setSelectedEdges(edgeIds);
  }, []);

  const onNodesChange = useCallback(
    (changes: NodeChange<FlowNode>[]) => {
      const positions = new Map<string, Point>();
      let gestureEnded = false;
      let selection: Map<string, boolean> | null = null;
      for (const change of changes) {
        if (change.type === "position") {
          if (change.position) positions.set(change.id, change.position);
          if (!change.dragging) gestureEnded = true;
        } else if (change.type === "select") {
          (selection ??= new Map()).set(change.id, change.selected);
        } else if (change.type === "dimensions" && change.dimensions) {
          nodeMapper.measure(change.id, change.dimensions);
        }
        // "remove" arrives through onDelete, as one undo step with the edges.
      }
      if (positions.size > 0) preview((current) => moveNodes(current, positions));
      if (gestureEnded) settle();
      if (selection) {
        const changed = selection;
        setSelectedNodes((current) => {
          const next = new Set(current);
          for (const [id, selected] of changed) {
            if (selected) next.add(id);
            else next.delete(id);
          }
          return next;
        });
      }
    },
    [preview, settle, nodeMapper],
  );

  const onEdgesChange = useCallback((changes: EdgeChange<FlowEdge>[]) => {
    const selection = changes.filter((change) => change.type === "select");
    if (selection.length === 0) return;
    setSelectedEdges((current) => {
      const next = new Set(current);
      for (const change of selection) {
        if (change.selected) next.add(change.id);
        else next.delete(change.id);
      }
      return next;
    });
  }, []);

  /** Adds the edge a connection makes, as one undo step; the reason it cannot, else null. The canvas and the inspector both connect through it. */
  const connect = useCallback(
    (connection: NodeConnection): string | null => {
      const result = edgeForConnection(definition, connection);
      if ("refused" in result) return result.refused;
      commit((current) => addEdge(current, result.edge));
      announce(connectionMadeText(definitionNames(definition, toolsByName), result.edge));
      return null;
    },
    [definition, commit, announce, toolsByName],
  );

  const onConnect = useCallback(
    (connection: Connection) => {
      const refused = connect(connection);
      if (refused !== null) notify(refused);
    },
    [connect, notify],
  );

  const isValidConnection = useCallback(
    (connection: Connection | Edge) => "edge" in edgeForConnection(definition, connection),
    [definition],
  );

  const deleteElements = useCallback(
    (nodeIds: ReadonlySet<string>, edgeIds: ReadonlySet<string>) => {
      commit((current) => removeElements(current, nodeIds, edgeIds));
      setSelectedNodes((current) => new Set([...current].filter((id) => !nodeIds.has(id))));
      setSelectedEdges((current) => new Set([...current].filter((id) => !edgeIds.has(id))));
    },
    [commit],
  );

  const onDelete = useCallback(
    ({ nodes, edges }: { nodes: FlowNode[]; edges: FlowEdge[] }) =>
      deleteElements(new Set(nodes.map((node) => node.id)), new Set(edges.map((edge) => edge.id))),
    [deleteElements],
  );

  // The handlers React Flow calls go to the canvas together, as they are (each is stable: spread, they re-render nothing).
  const canvasHandlers = { onNodesChange, onEdgesChange, onConnect, isValidConnection, onDelete };
  return { selectedNodes, selectedEdges, select, connect, deleteElements, canvasHandlers };
}
