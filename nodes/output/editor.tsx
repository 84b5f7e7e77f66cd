"use client";

import { useMemo } from "react";
import { Field } from "@/components/ui/field";
import { referenceOptions } from "@/lib/schema-form/references";
import { PanelSection } from "@/components/editor/inspector/panel-section";
import { TemplateInput } from "@/components/editor/inspector/template-input";
import type { NodeInspectorPanelProps, NodeKindEditor } from "../node-kind-editor";
import type { OutputNode } from "./definition";

/** The run's result: text with `{{ … }}` references to inputs and upstream steps. */
export function OutputPanel({ node, definition, tools, problems, onChange }: NodeInspectorPanelProps<OutputNode>) {
  const toolTitles = useMemo(() => new Map(tools.map((tool) => [tool.name, tool.title])), [tools]);
  const references = useMemo(() => referenceOptions(definition, node.id, toolTitles), [definition, node.id, toolTitles]);
  const id = `inspector-${node.id}-value`;
  const error = problems
    .filter((problem) => problem.field === "value")
    .map((problem) => problem.message)
    .join(" ") || undefined;
  return (
    <PanelSection title="Result" description="What the run returns when it reaches this step. Pick a value to insert it at the cursor.">
      <Field id={id} label="Value" help="Text with {{ … }} references; a value that is one reference keeps its type." error={error}>
        <TemplateInput
          id={id}
          value={node.value}
          multiline
          options={references}
          purpose="the result"
          placeholder="{{ nodes.summary.output }}"
          invalid={Boolean(error)}
          describedBy={[`${id}-help`, error ? `${id}-error` : null].filter(Boolean).join(" ")}
          onChange={(value) => onChange({ ...node, value })}
        />
      </Field>
    </PanelSection>
  );
}

export const outputEditor = {
  Panel: OutputPanel,
  problemFields: ["value"],
} satisfies NodeKindEditor<OutputNode>;
