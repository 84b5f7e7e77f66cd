import type { ComponentType } from "react";
import type { CatalogTool } from "@/lib/contracts/catalog";
import type { WorkflowDefinition } from "@/lib/workflow/definition";
import type { WorkflowProblem } from "@/lib/contracts/workflow-problem";
import type { NodeShape } from "./node-kind";

// What the editor knows of a node kind beyond nodes/node-kind.ts: its
// inspector panel. Client-side (React); never import it from server code.

/** What the inspector hands every kind's panel. */
export interface NodeInspectorPanelProps<Node extends NodeShape> {
  node: Node;
  definition: WorkflowDefinition;
  /** The installed tools (a tool panel finds its own; others name upstream tools by title). */
  tools: readonly CatalogTool[];
  /** This node's problems. */
  problems: readonly WorkflowProblem[];
  onChange: (node: Node) => void;
}

/** The inspector header's title and icon. */
export interface InspectorHeading {
  title: string;
  icon: string | null;
  domain?: string;
}

/** One node kind in the editor: registered in nodes/editor.ts. */
export interface NodeKindEditor<Node extends NodeShape> {
  /** The kind's own panel, under the shared header (label, id, delete). */
  Panel: ComponentType<NodeInspectorPanelProps<Node>>;
  /** Field prefixes the panel shows problems beside; problems on other fields are listed above it. */
  problemFields: readonly string[];
  /** The header's title and icon when they depend on the node (a tool's own); default: the kind's. */
  heading?: (node: Node, tools: readonly CatalogTool[]) => InspectorHeading;
}
