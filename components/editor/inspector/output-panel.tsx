"use client";

import { useMemo } from "react";
import { Field } from "@/components/ui/field";
import { referenceOptions } from "@/lib/schema-form/references";
import type { CatalogTool } from "@/lib/server/tool-catalog";
import type { OutputNode, WorkflowDefinition } from "@/lib/workflow/definition";
import type { WorkflowProblem } from "@/lib/workflow/validate";
import { PanelSection } from "./panel-section";
import { TemplateInput } from "./template-input";

interface OutputPanelProps {
  node: OutputNode;
  definition: WorkflowDefinition;
  tools: readonly CatalogTool[];
  problems: readonly WorkflowProblem[];
  onChange: (node: OutputNode) => void;
}

/** The run's result: text with `{{ … }}` references to inputs and upstream steps. */
export function OutputPanel({ node, definition, tools, problems, onChange }: OutputPanelProps) {
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
