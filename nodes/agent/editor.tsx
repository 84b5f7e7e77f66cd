"use client";

import { useMemo } from "react";
import { CONTROL_CLASS, Field } from "@/components/ui/field";
import { referenceOptions } from "@/lib/schema-form/references";
import type { PermissionMode } from "@/lib/tools/permissions/guardrails";
import { ModelFields } from "@/components/editor/model-fields";
import { PanelSection } from "@/components/editor/inspector/panel-section";
import { TemplateInput } from "@/components/editor/inspector/template-input";
import { fieldErrorOf } from "../field-errors";
import type { NodeInspectorPanelProps, NodeKindEditor } from "../node-kind-editor";
import type { AgentNode } from "./definition";

const MODES: { value: PermissionMode; label: string }[] = [
  { value: "plan", label: "Plan first: a person approves the agent's plan before anything changes" },
  { value: "default", label: "Ask: changes wait for a person's approval" },
  { value: "accept_edits", label: "Accept edits: file changes run, commands still ask" },
  { value: "bypass", label: "Bypass: everything runs (guardrails still hold)" },
];

/** What the agent is told: its standing instructions and this run's task, each a template. */
const PROMPTS: { field: "systemPrompt" | "task"; label: string; required?: boolean; help: string; purpose: string; placeholder: string }[] = [
  { field: "systemPrompt", label: "System prompt", help: "Standing instructions: who the agent is and how it works.", purpose: "the system prompt", placeholder: "You are a careful analyst…" },
  { field: "task", label: "Task", required: true, help: "What to do in this run.", purpose: "the task", placeholder: "Summarise {{ inputs.file }} in summary.md." },
];

/**
 * An agent: which model (provider, model id, server address, API key), what
 * it is told (system prompt, task) and how much it may do (mode, turn limit).
 * Its tools are the tool nodes connected into it on the canvas.
 */
export function AgentPanel({ node, definition, tools, problems, onChange }: NodeInspectorPanelProps<AgentNode>) {
  const toolTitles = useMemo(() => new Map(tools.map((tool) => [tool.name, tool.title])), [tools]);
  const references = useMemo(() => referenceOptions(definition, node.id, toolTitles), [definition, node.id, toolTitles]);
  const attached = useMemo(() => {
    const byId = new Map(definition.nodes.map((each) => [each.id, each]));
    return definition.edges.flatMap((edge) => {
      const source = byId.get(edge.source);
      return edge.target === node.id && source?.kind === "tool" ? [source.label || toolTitles.get(source.tool) || source.tool] : [];
    });
  }, [definition, node.id, toolTitles]);
  const errorOf = (field: string) => fieldErrorOf(problems, field);
  const ids = (field: string) => `inspector-${node.id}-${field}`;
  const describedBy = (field: string, help = true) => [help ? `${ids(field)}-help` : null, errorOf(field) ? `${ids(field)}-error` : null].filter(Boolean).join(" ") || undefined;
  const set = (change: Partial<AgentNode>) => {
    const next = { ...node, ...change };
    for (const key of ["baseUrl", "apiKey", "mode"] as const) if (next[key] === undefined || next[key] === "") delete next[key];
    onChange(next);
  };

  return (
    <>
      <PanelSection title="Model" description="Who answers. See README → Connecting a model.">
        <ModelFields idPrefix={`inspector-${node.id}`} value={node} errorOf={errorOf} onChange={set} />
      </PanelSection>
      <PanelSection title="Instructions" description="Pick a value to insert a reference to the run's inputs or an upstream step at the cursor.">
        {PROMPTS.map((prompt) => (
          <Field key={prompt.field} id={ids(prompt.field)} label={prompt.label} required={prompt.required} help={prompt.help} error={errorOf(prompt.field)}>
            <TemplateInput
              id={ids(prompt.field)}
              value={node[prompt.field]}
              multiline
              options={references}
              purpose={prompt.purpose}
              placeholder={prompt.placeholder}
              invalid={Boolean(errorOf(prompt.field))}
              describedBy={describedBy(prompt.field)}
              onChange={(text) => set({ [prompt.field]: text })}
            />
          </Field>
        ))}
      </PanelSection>
      <PanelSection title="Tools" description="Connect tool nodes into this agent on the canvas; its model decides their inputs. Ask a person, Task list and Finish are always available.">
        {attached.length === 0 ? (
          <p className="text-sm text-muted">No tools attached yet.</p>
        ) : (
          <ul className="list-inside list-disc text-sm text-foreground" aria-label="Attached tools">
            {attached.map((title, index) => (
              <li key={index}>{title}</li>
            ))}
          </ul>
        )}
      </PanelSection>
      <PanelSection title="Limits">
        <Field id={ids("mode")} label="Mode" help="How much the agent may do without asking." error={errorOf("mode")}>
          <select
            id={ids("mode")}
            className={CONTROL_CLASS}
            value={node.mode ?? ""}
            aria-describedby={describedBy("mode")}
            onChange={(event) => set({ mode: (event.target.value || undefined) as PermissionMode | undefined })}
          >
            <option value="">The workflow&apos;s mode ({definition.mode})</option>
            {MODES.map((each) => (
              <option key={each.value} value={each.value}>
                {each.label}
              </option>
            ))}
          </select>
        </Field>
        <Field id={ids("maxTurns")} label="Max turns" help={`Model calls before the agent stops; at most ${definition.guardrails.maxTurns}.`} error={errorOf("maxTurns")}>
          <input
            id={ids("maxTurns")}
            type="number"
            min={1}
            max={definition.guardrails.maxTurns}
            className={CONTROL_CLASS}
            value={node.maxTurns}
            aria-invalid={errorOf("maxTurns") ? true : undefined}
            aria-describedby={describedBy("maxTurns")}
            onChange={(event) => {
              const value = Number.parseInt(event.target.value, 10);
              if (Number.isFinite(value) && value > 0) set({ maxTurns: value });
            }}
          />
        </Field>
      </PanelSection>
    </>
  );
}

export const agentEditor = {
  Panel: AgentPanel,
  problemFields: ["provider", "model", "baseUrl", "apiKey", "systemPrompt", "task", "mode", "maxTurns"],
} satisfies NodeKindEditor<AgentNode>;
