"use client";

import { useMemo } from "react";
import type { CatalogTool } from "@/lib/contracts/catalog";
import type { WorkflowDefinition, WorkflowNode } from "@/lib/workflow/definition";
import type { WorkflowProblem } from "@/lib/workflow/validate";
import { definitionOf, handlesFailures, startsRunsOf } from "@/nodes/definitions";
import { editorOf } from "@/nodes/editor";
import type { NodeNames } from "@/lib/editor/connection-choices";
import type { Connection } from "@/lib/editor/definition-edits";
import { ConnectionsSection } from "./connections-section";
import { FailureSection } from "./failure-section";
import { InspectorHeader } from "./inspector-header";
import { PanelSection, ProblemList } from "./panel-section";
import { NodeApprovalPolicy } from "../approval-policies-section";
import { TestSection } from "./test-section";

export interface NodeInspectorProps {
  node: WorkflowNode;
  definition: WorkflowDefinition;
  tools: CatalogTool[];
  /** This node's problems only. */
  problems: WorkflowProblem[];
  onChange: (node: WorkflowNode) => void;
  onDelete: () => void;
  names: NodeNames;
  /** Commits a connection as a canvas drag does; the reason it was refused, else null. */
  onConnect: (connection: Connection) => string | null;
  onRemoveEdge: (edgeId: string) => void;
}

/**
 * The selected node's panel: a shared header (label, id, delete), then its
 * kind's own panel (settings and inputs; nodes/<kind>/editor.tsx, by the table
 * in nodes/editor.ts), then "Test this step", Connections and On failure.
 * Re-keyed by node id so one node's drafts never leak into another's.
 */
export function NodeInspector({ node, definition, tools, problems, onChange, onDelete, names, onConnect, onRemoveEdge }: NodeInspectorProps) {
  const editor = editorOf(node);
  const kind = definitionOf(node);
  const heading = editor.heading?.(node, tools) ?? { title: kind.title, icon: kind.icon };
  const failures = handlesFailures(node.kind);
  // Problems the kind's panel (or On failure) does not show beside a field are listed above it.
  const general = useMemo(() => {
    const shown = failures ? [...editor.problemFields, "execution"] : editor.problemFields;
    return problems.filter(
      (problem) => !problem.field || !shown.some((prefix) => problem.field === prefix || problem.field!.startsWith(`${prefix}.`) || problem.field!.startsWith(`${prefix}[`)),
    );
  }, [problems, editor, failures]);
  const defaults = useMemo(() => ({ onError: definition.onError, execution: definition.execution }), [definition.onError, definition.execution]);
  const Panel = editor.Panel;

  return (
    <div key={node.id} className="flex min-h-full flex-col bg-surface text-foreground" aria-label={`Inspector: ${node.label || heading.title}`} role="region">
      <InspectorHeader
        nodeId={node.id}
        kindTitle={heading.title}
        icon={heading.icon}
        domain={heading.domain}
        label={node.label}
        placeholder={heading.title}
        onLabelChange={(label) => {
          const next = { ...node };
          if (label === undefined) delete next.label;
          else next.label = label;
          onChange(next);
        }}
        onDelete={onDelete}
      />
      {general.length > 0 ? (
        <div className="px-4 pb-4">
          <ProblemList problems={general} />
        </div>
      ) : null}
      {/* What the step does (its settings and inputs) first: a new step is set up before it can be tried or wired. */}
      <Panel key={node.id} node={node} definition={definition} tools={tools} problems={problems} onChange={onChange} />
      {startsRunsOf(node.kind) === "on-trigger" ? null : <TestSection node={node} definition={definition} tools={tools} names={names} />}
      <ConnectionsSection node={node} definition={definition} names={names} onConnect={onConnect} onRemoveEdge={onRemoveEdge} />
      {failures ? <FailureSection node={node} defaults={defaults} problems={problems} onChange={onChange} /> : null}
      {node.kind === "tool" || node.kind === "agent" ? (
        <PanelSection title="Who approves" description="Who may decide this step's approvals, and how many must approve. Unset, the workflow's rule applies.">
          <NodeApprovalPolicy
            value={node.approvals}
            onChange={(approvals) => {
              const next = { ...node };
              if (approvals) next.approvals = approvals;
              else delete next.approvals;
              onChange(next);
            }}
          />
        </PanelSection>
      ) : null}
    </div>
  );
}
