"use client";

import dynamic from "next/dynamic";
import { memo } from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/page-header";
import type { CatalogTool } from "@/lib/contracts/catalog";
import type { WorkflowDefinition, WorkflowNode } from "@/lib/workflow/definition";
import type { WorkflowProblem } from "@/lib/workflow/validate";
import type { NodeNames } from "@/lib/editor/connection-choices";
import type { Connection } from "@/lib/editor/definition-edits";
import { WorkflowSettingsPanel, type WorkflowSettings } from "./workflow-settings-panel";

const NO_PROBLEMS: WorkflowProblem[] = [];

/**
 * A node's inspector (every kind's forms, the schema forms, the pickers) is
 * the editor's largest part, and no node is selected when it opens: it is
 * loaded apart, so a large workflow draws sooner, and fetched while the
 * browser is idle after that (preloadNodeInspector), so the first selection
 * does not wait.
 */
const loadNodeInspector = () => import("./inspector/node-inspector").then((module) => module.NodeInspector);
const NodeInspector = dynamic(loadNodeInspector, {
  loading: () => (
    <div className="p-4">
      <Spinner label="Loading the inspector" />
    </div>
  ),
});

export function preloadNodeInspector(): void {
  void loadNodeInspector();
}

interface InspectorPanelProps {
  workflowId: string;
  definition: WorkflowDefinition;
  tools: CatalogTool[];
  /** The one selected node, if exactly one is selected. */
  node: WorkflowNode | undefined;
  selectedCount: number;
  problemsByNode: ReadonlyMap<string, readonly WorkflowProblem[]>;
  generalProblems: readonly WorkflowProblem[];
  names: NodeNames;
  edits: InspectorEdits;
}

/** What the inspector changes (components/editor/use-inspector-edits.ts makes them). */
export interface InspectorEdits {
  /** Replaces the selected node with its edited version. */
  changeNode: (node: WorkflowNode) => void;
  deleteSelection: () => void;
  /** Adds the edge, or says why it cannot. */
  connect: (connection: Connection) => string | null;
  removeEdge: (edgeId: string) => void;
  changeSettings: <Key extends keyof WorkflowSettings>(key: Key, value: WorkflowSettings[Key]) => void;
}

/** The right panel: the selected node's inspector, a note for several, else the workflow's own settings. */
export const InspectorPanel = memo(function InspectorPanel(props: InspectorPanelProps) {
  const { definition, node, selectedCount, edits } = props;
  if (node) {
    return (
      <NodeInspector
        key={node.id}
        node={node}
        definition={definition}
        tools={props.tools}
        problems={(props.problemsByNode.get(node.id) as WorkflowProblem[] | undefined) ?? NO_PROBLEMS}
        onChange={edits.changeNode}
        onDelete={edits.deleteSelection}
        names={props.names}
        onConnect={edits.connect}
        onRemoveEdge={edits.removeEdge}
      />
    );
  }
  if (selectedCount > 0) {
    return (
      <section className="space-y-3 p-4" aria-label="Selection">
        <h2 className="text-sm font-semibold">
          {selectedCount} {selectedCount === 1 ? "item" : "items"} selected
        </h2>
        <p className="text-xs text-muted">Select a single node to configure it. Press Delete to remove the selection.</p>
        <Button variant="danger" size="sm" onClick={edits.deleteSelection}>
          Delete {selectedCount === 1 ? "it" : `${selectedCount} items`}
        </Button>
      </section>
    );
  }
  return (
    <WorkflowSettingsPanel
      workflowId={props.workflowId}
      settings={{
        name: definition.name,
        description: definition.description,
        mode: definition.mode,
        onError: definition.onError,
        execution: definition.execution,
        errorWorkflowId: definition.errorWorkflowId,
        approvals: definition.approvals,
        keepFullOutputs: definition.keepFullOutputs,
        traceContent: definition.traceContent,
      }}
      problems={props.generalProblems}
      onChange={edits.changeSettings}
    />
  );
});
