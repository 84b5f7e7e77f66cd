"use client";

import { useMemo } from "react";
import { SchemaForm } from "@/components/schema-form";
import { ON_ERROR_CHOICES, type ExecutionDefaultsSource, type NodeExecution } from "@/lib/contracts/execution-settings";
import { nodeExecutionFormSchema, storedExecution } from "@/lib/editor/execution-form";
import { problemsUnder } from "@/lib/schema-form/field-descriptors";
import type { WorkflowNode } from "@/lib/workflow/definition";
import type { WorkflowProblem } from "@/lib/workflow/validate";
import { executionOf } from "@/nodes/definitions";
import { PanelSection } from "./panel-section";

interface FailureSectionProps {
  node: WorkflowNode;
  /** The workflow's defaults, which the node's empty fields inherit. */
  defaults: ExecutionDefaultsSource;
  problems: readonly WorkflowProblem[];
  onChange: (node: WorkflowNode) => void;
}

/**
 * The inspector's "On failure": retries (attempts, first wait, backoff
 * factor, longest wait), a time limit and what happens on error, generated
 * from the execution contract; empty fields take the workflow's defaults.
 * Shared by every kind whose nodes handle failures (tools, agents, routers).
 */
export function FailureSection({ node, defaults, problems, onChange }: FailureSectionProps) {
  const execution = executionOf(node);
  const schema = useMemo(() => nodeExecutionFormSchema(execution, defaults), [execution, defaults]);
  const fieldProblems = useMemo(() => problemsUnder("execution", problems), [problems]);
  const onError = execution?.onError ?? defaults.onError;
  return (
    <PanelSection
      title="On failure"
      description="What happens when this step fails. It is tried again only for errors that say trying again may help (a time-out, a dropped connection, a busy database), never for a denial or bad input. Empty fields follow the workflow's settings."
    >
      <SchemaForm
        schema={schema}
        value={(execution ?? {}) as Record<string, unknown>}
        idPrefix={`inspector-${node.id}-execution`}
        problems={fieldProblems}
        notes={{
          onError: `${ON_ERROR_CHOICES[onError].explanation}${onError === "error-edge" ? " Drag from the card's red “on error” handle to the step that handles it." : ""}`,
        }}
        onChange={(value) => {
          const next = { ...node } as WorkflowNode & { execution?: NodeExecution };
          const stored = storedExecution(value as NodeExecution);
          if (stored) next.execution = stored;
          else delete next.execution;
          onChange(next);
        }}
      />
    </PanelSection>
  );
}
