"use client";

import { useMemo } from "react";
import type { CatalogTool } from "@/lib/server/tool-catalog";
import type { WorkflowDefinition, WorkflowNode } from "@/lib/workflow/definition";
import type { WorkflowProblem } from "@/lib/workflow/validate";
import { AgentPanel } from "./agent-panel";
import { InputPanel } from "./input-panel";
import { InspectorHeader } from "./inspector-header";
import { OutputPanel } from "./output-panel";
import { ProblemList } from "./panel-section";
import { RouterPanel } from "./router-panel";
import { ToolPanel } from "./tool-panel";

export interface NodeInspectorProps {
  node: WorkflowNode;
  definition: WorkflowDefinition;
  tools: CatalogTool[];
  /** This node's problems only. */
  problems: WorkflowProblem[];
  onChange: (node: WorkflowNode) => void;
  onDelete: () => void;
}

/** The fields each kind of panel shows problems beside; the rest are listed at the top. */
const FIELDS_SHOWN: Record<WorkflowNode["kind"], readonly string[]> = {
  tool: ["settings", "arguments", "operation"],
  input: ["fields"],
  router: ["routes"],
  output: ["value"],
  agent: ["provider", "model", "baseUrl", "apiKey", "systemPrompt", "task", "mode", "maxTurns"],
};

const KIND_TITLES = { input: "Run inputs", router: "Router", output: "Output", agent: "Agent" } as const;
const KIND_ICONS = { input: "log-in", router: "git-branch", output: "flag", agent: "bot" } as const;

/**
 * The selected node's panel: a shared header (label, id, delete) and, per
 * kind, its own panel. Re-keyed by node id so one node's drafts never leak
 * into another's.
 */
export function NodeInspector({ node, definition, tools, problems, onChange, onDelete }: NodeInspectorProps) {
  const tool = node.kind === "tool" ? tools.find((each) => each.name === node.tool) : undefined;
  const general = useMemo(
    () =>
      problems.filter(
        (problem) =>
          !problem.field ||
          !FIELDS_SHOWN[node.kind].some((prefix) => problem.field === prefix || problem.field!.startsWith(`${prefix}.`) || problem.field!.startsWith(`${prefix}[`)),
      ),
    [problems, node.kind],
  );
  const kindTitle = node.kind === "tool" ? (tool?.title ?? node.tool) : KIND_TITLES[node.kind];

  return (
    <div key={node.id} className="flex min-h-full flex-col bg-surface text-foreground" aria-label={`Inspector: ${node.label || kindTitle}`} role="region">
      <InspectorHeader
        nodeId={node.id}
        kindTitle={kindTitle}
        icon={node.kind === "tool" ? (tool?.icon ?? null) : KIND_ICONS[node.kind]}
        domain={tool?.domain}
        label={node.label}
        placeholder={kindTitle}
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
      {node.kind === "tool" ? (
        <ToolPanel key={node.id} node={node} tool={tool} definition={definition} tools={tools} problems={problems} onChange={onChange} />
      ) : node.kind === "input" ? (
        <InputPanel key={node.id} node={node} problems={problems} onChange={onChange} />
      ) : node.kind === "router" ? (
        <RouterPanel key={node.id} node={node} definition={definition} tools={tools} problems={problems} onChange={onChange} />
      ) : node.kind === "output" ? (
        <OutputPanel key={node.id} node={node} definition={definition} tools={tools} problems={problems} onChange={onChange} />
      ) : (
        <AgentPanel key={node.id} node={node} definition={definition} tools={tools} problems={problems} onChange={onChange} />
      )}
    </div>
  );
}
