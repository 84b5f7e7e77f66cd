"use client";

import { useMemo } from "react";
import { SchemaForm } from "@/components/schema-form";
import { CONTROL_CLASS, Field } from "@/components/ui/field";
import { ErrorNotice } from "@/components/ui/page-header";
import { problemsUnder, type JsonSchema } from "@/lib/schema-form/field-descriptors";
import { referenceOptions } from "@/lib/schema-form/references";
import { PanelSection } from "@/components/editor/inspector/panel-section";
import type { NodeInspectorPanelProps, NodeKindEditor } from "../node-kind-editor";
import { AttachedInputs } from "./attached-inputs";
import { CredentialsSection } from "./credentials-section";
import type { ToolNode } from "./definition";
import { ToolInputsSection } from "./tool-inputs-section";

/**
 * A tool step in two parts that never mix: Settings (how the step is set up,
 * from the tool's settings model; absent when it has none) and Inputs (what
 * each call receives, fixed or taken from the run and upstream steps).
 */
export function ToolPanel({ node, definition, tools, problems, onChange }: NodeInspectorPanelProps<ToolNode>) {
  const tool = useMemo(() => tools.find((each) => each.name === node.tool), [tools, node.tool]);
  const toolTitles = useMemo(() => new Map(tools.map((each) => [each.name, each.title])), [tools]);
  const references = useMemo(() => referenceOptions(definition, node.id, toolTitles), [definition, node.id, toolTitles]);
  const settingsProblems = useMemo(() => problemsUnder("settings", problems), [problems]);
  const argumentProblems = useMemo(() => problemsUnder("arguments", problems), [problems]);
  // Edges from this tool into agents attach it: the agents' models decide its inputs.
  const agentNames = useMemo(() => {
    const agents = new Map(definition.nodes.flatMap((each) => (each.kind === "agent" ? [[each.id, each.label || each.id] as const] : [])));
    return definition.edges.filter((edge) => edge.source === node.id && agents.has(edge.target)).map((edge) => agents.get(edge.target)!);
  }, [definition, node.id]);

  if (!tool) {
    return (
      <div className="p-4">
        <ErrorNotice title="Unknown tool">
          This step uses the tool “{node.tool}”, which this studio does not have. Delete the step, or add it again from the palette.
        </ErrorNotice>
      </div>
    );
  }

  const operation = tool.operations.find((each) => each.name === node.operation);
  const inputSchema: JsonSchema | null = tool.operations.length > 0 ? (operation?.inputSchema ?? null) : tool.inputSchema;
  const settingsSchema = tool.settingsSchema;
  const operationError = problems.find((problem) => problem.field === "operation")?.message;
  const operationId = `inspector-${node.id}-operation`;
  const secretNames = tool.secretInputs.map((input) => input.name);

  const chooseOperation = (name: string) => {
    const next = tool.operations.find((each) => each.name === name);
    const allowed = new Set([...Object.keys((next?.inputSchema.properties as Record<string, unknown> | undefined) ?? {}), ...secretNames]);
    // Another operation's inputs are not this one's: keep only what it also takes, and the credentials.
    const kept = Object.fromEntries(Object.entries(node.arguments).filter(([key]) => allowed.has(key)));
    onChange({ ...node, operation: name === "" ? null : name, arguments: kept });
  };

  return (
    <>
      <p className="border-t border-line px-4 py-4 text-xs leading-relaxed text-muted">{tool.description}</p>
      {settingsSchema ? (
        <PanelSection
          title="Settings"
          description={
            <>
              {typeof settingsSchema.title === "string" ? <span className="font-medium text-foreground">{settingsSchema.title}. </span> : null}
              {typeof settingsSchema.description === "string" ? settingsSchema.description : "How this step is set up."}
            </>
          }
        >
          <SchemaForm
            schema={settingsSchema}
            value={node.settings}
            idPrefix={`inspector-${node.id}-settings`}
            problems={settingsProblems}
            onChange={(settings) => onChange({ ...node, settings })}
          />
        </PanelSection>
      ) : null}
      <CredentialsSection node={node} tool={tool} problems={argumentProblems} onChange={onChange} />
      <PanelSection title="Inputs" description="What the step receives on each run: a fixed value, or a value from the run's inputs or an earlier step.">
        {tool.operations.length > 0 ? (
          <Field id={operationId} label="Operation" required error={operationError} help={operation?.description}>
            <select
              id={operationId}
              className={CONTROL_CLASS}
              value={node.operation ?? ""}
              aria-invalid={operationError ? true : undefined}
              aria-describedby={[operation ? `${operationId}-help` : null, operationError ? `${operationId}-error` : null].filter(Boolean).join(" ") || undefined}
              onChange={(event) => chooseOperation(event.target.value)}
            >
              <option value="" disabled>
                Choose what to do…
              </option>
              {tool.operations.map((each) => (
                <option key={each.name} value={each.name}>
                  {each.title}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        {inputSchema && agentNames.length > 0 ? (
          <AttachedInputs node={node} schema={inputSchema} hidden={secretNames} agentNames={agentNames} />
        ) : inputSchema ? (
          <ToolInputsSection
            key={node.operation ?? ""}
            node={node}
            tool={tool}
            schema={inputSchema}
            references={references}
            problems={Object.fromEntries(Object.entries(argumentProblems).filter(([key]) => !secretNames.includes(key)))}
            onChange={onChange}
          />
        ) : (
          <p className="text-sm text-muted">Choose an operation to see its inputs.</p>
        )}
      </PanelSection>
    </>
  );
}

export const toolEditor = {
  Panel: ToolPanel,
  problemFields: ["settings", "arguments", "operation"],
  // A tool node is headed by its tool: its title, icon and domain.
  heading: (node, tools) => {
    const tool = tools.find((each) => each.name === node.tool);
    return { title: tool?.title ?? node.tool, icon: tool?.icon ?? null, domain: tool?.domain };
  },
} satisfies NodeKindEditor<ToolNode>;
