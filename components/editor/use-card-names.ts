"use client";

import { useMemo } from "react";
import type { NodeNames } from "@/lib/editor/connection-choices";
import type { FlowNode } from "@/lib/editor/to-flow";

/**
 * The names the editor speaks of cards by, read off the cards as drawn: a map
 * of node id to title (for the Go to node list), and the lookups the
 * inspector's connection lists and the edges' accessible names use.
 */
export function useCardNames(flowNodes: readonly FlowNode[]): { nodeNames: ReadonlyMap<string, string>; inspectorNames: NodeNames } {
  return useMemo(() => {
    const cards = new Map(flowNodes.map((node) => [node.id, node.data]));
    const nodeNames = new Map(flowNodes.map((node) => [node.id, node.data.title]));
    const inspectorNames: NodeNames = {
      titleOf: (nodeId) => cards.get(nodeId)?.title ?? "A node no longer in this workflow",
      outputsOf: (nodeId) => cards.get(nodeId)?.outputs ?? [],
      hasErrorPath: (nodeId) => cards.get(nodeId)?.errorHandle === true,
    };
    return { nodeNames, inspectorNames };
  }, [flowNodes]);
}
