import { ERROR_HANDLE } from "@/lib/contracts/execution-settings";
import type { WorkflowDefinition } from "@/lib/workflow/definition";
import type { Connection } from "./definition-edits";

/** What a card is called (its label, else its kind's or tool's title) and its named outputs, by node id. */
export interface NodeNames {
  titleOf: (nodeId: string) => string;
  /** A router's routes (and "default"); empty for a node with one unnamed output. */
  outputsOf: (nodeId: string) => readonly { id: string; label: string }[];
  /** Whether the node follows an error path on failure (its card has an error handle). */
  hasErrorPath: (nodeId: string) => boolean;
}

/** One entry of the inspector's "Connect to…": a target, by a route when the source has routes. */
export interface ConnectionChoice {
  value: string;
  label: string;
  connection: Connection;
}

/** The other node's title, with the route the edge leaves by when its source is a router, or "(error path)". */
export function edgeName(names: NodeNames, otherId: string, sourceId: string, handle: string | null | undefined): string {
  if (handle === ERROR_HANDLE) return `${names.titleOf(otherId)} (error path)`;
  const route = names.outputsOf(sourceId).find((output) => output.id === handle)?.label;
  return route ? `${names.titleOf(otherId)} (route ${route})` : names.titleOf(otherId);
}

/**
 * An edge as a screen reader names it: "Connection from Run inputs to Write a
 * File (route yes)", or for an error edge "Error path from Fetch to Notify".
 */
export function edgeLabel(names: NodeNames, edge: { source: string; target: string; sourceHandle?: string | null }): string {
  if (edge.sourceHandle === ERROR_HANDLE) return `Error path from ${names.titleOf(edge.source)} to ${names.titleOf(edge.target)}`;
  return `Connection from ${names.titleOf(edge.source)} to ${edgeName(names, edge.target, edge.source, edge.sourceHandle)}`;
}

/**
 * Every connection a keyboard can ask for from `sourceId`: each other node,
 * once per named output (a router's routes) or once for the one output, and
 * once more by the error path when the node follows one.
 * Nothing is filtered here: whether one is allowed is edgeForConnection's to
 * say when it is made, so the inspector gives the canvas's reason.
 */
export function connectionChoices(definition: Pick<WorkflowDefinition, "nodes">, sourceId: string, names: NodeNames): ConnectionChoice[] {
  const outputs = names.outputsOf(sourceId);
  const handles: (string | null)[] = [...(outputs.length > 0 ? outputs.map((output) => output.id) : [null]), ...(names.hasErrorPath(sourceId) ? [ERROR_HANDLE] : [])];
  const others = definition.nodes.filter((other) => other.id !== sourceId);
  return handles.flatMap((handle) =>
    others.map((other) => ({
      value: JSON.stringify([other.id, handle]),
      label: edgeName(names, other.id, sourceId, handle),
      connection: { source: sourceId, target: other.id, sourceHandle: handle },
    })),
  );
}
