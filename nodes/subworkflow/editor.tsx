"use client";

import { useMemo } from "react";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { referenceOptions } from "@/lib/schema-form/references";
import { PanelSection } from "@/components/editor/inspector/panel-section";
import { TemplateInput } from "@/components/editor/inspector/template-input";
import { WorkflowOptions } from "@/components/editor/other-workflows";
import { fieldErrorOf } from "../field-errors";
import type { NodeInspectorPanelProps, NodeKindEditor } from "../node-kind-editor";
import { PUBLISHED_VERSION, type SubWorkflowNode } from "./definition";
import { useCalledInputs, useWorkflowList, versionToRead } from "./use-called-workflow";

/**
 * A Sub-workflow step: which saved workflow it calls and on which version,
 * and what each of that workflow's run inputs is given (a value, or a
 * template over this run's inputs and upstream steps).
 */
export function SubWorkflowPanel({ node, definition, tools, problems, onChange }: NodeInspectorPanelProps<SubWorkflowNode>) {
  const toolTitles = useMemo(() => new Map(tools.map((tool) => [tool.name, tool.title])), [tools]);
  const references = useMemo(() => referenceOptions(definition, node.id, toolTitles), [definition, node.id, toolTitles]);
  const { workflows, error: listError } = useWorkflowList();
  const chosen = workflows?.find((each) => each.id === node.workflowId);
  const { fields, error: inputsError } = useCalledInputs(node.workflowId, versionToRead(node, chosen));
  const errorOf = (field: string) => fieldErrorOf(problems, field);
  const ids = (field: string) => `inspector-${node.id}-${field.replace(/\./g, "-")}`;

  const chooseWorkflow = (workflowId: string) => {
    const next = workflows?.find((each) => each.id === workflowId);
    // A label that was the old choice's name (or none) follows the new choice, so the card says what it calls.
    const followsName = !node.label || node.label === chosen?.name;
    onChange({ ...node, workflowId, version: PUBLISHED_VERSION, inputs: {}, ...(followsName && next ? { label: next.name } : {}) });
  };
  const setInput = (name: string, value: string) => onChange({ ...node, inputs: { ...node.inputs, [name]: value } });
  const removeInput = (name: string) => {
    const { [name]: _removed, ...rest } = node.inputs;
    onChange({ ...node, inputs: rest });
  };

  const workflowHelp = "A saved workflow. Its run is a run of its own, linked to this one; its approvals reach the inbox naming both workflows.";
  const versionHelp = chosen && chosen.publishedVersion === null && node.version === PUBLISHED_VERSION
    ? `Not published yet: runs call its newest saved version (version ${chosen.latestVersion}) until it is.`
    : "Its published version follows what is live; a pinned version never changes.";
  const knownNames = new Set((fields ?? []).map((field) => field.name));
  const unknownMappings = fields ? Object.keys(node.inputs).filter((name) => !knownNames.has(name)) : [];
  const pinnedChoices = chosen ? Array.from({ length: chosen.latestVersion }, (_, index) => chosen.latestVersion - index) : node.version === PUBLISHED_VERSION ? [] : [node.version];

  return (
    <>
      <PanelSection title="Workflow to call" description="Its output is this step's output; its failure fails this step with the same kind, so On failure applies.">
        <Field id={ids("workflowId")} label="Workflow" required help={workflowHelp} error={errorOf("workflowId") ?? listError ?? undefined}>
          <select
            {...fieldAria(ids("workflowId"), { help: workflowHelp, error: errorOf("workflowId") ?? listError ?? undefined })}
            className={CONTROL_CLASS}
            value={node.workflowId}
            onChange={(event) => chooseWorkflow(event.target.value)}
          >
            <option value="">Choose a workflow…</option>
            <WorkflowOptions chosen={node.workflowId} workflows={workflows} />
          </select>
        </Field>
        <Field id={ids("version")} label="Version" help={versionHelp} error={errorOf("version")}>
          <select
            {...fieldAria(ids("version"), { help: versionHelp, error: errorOf("version") })}
            className={CONTROL_CLASS}
            value={String(node.version)}
            disabled={node.workflowId === ""}
            onChange={(event) => onChange({ ...node, version: event.target.value === PUBLISHED_VERSION ? PUBLISHED_VERSION : Number(event.target.value) })}
          >
            <option value={PUBLISHED_VERSION}>
              {chosen?.publishedVersion ? `Its published version (now version ${chosen.publishedVersion})` : "Its published version"}
            </option>
            {pinnedChoices.map((version) => (
              <option key={version} value={String(version)}>
                Version {version}
              </option>
            ))}
          </select>
        </Field>
      </PanelSection>
      {node.workflowId !== "" ? (
        <PanelSection title="Inputs" description="What each of its run inputs is given. Pick a value to insert it at the cursor; one reference keeps its type.">
          {inputsError ? <p className="text-xs font-medium text-caution">{inputsError}</p> : null}
          {fields === null && !inputsError ? <p className="text-xs text-muted">Reading its run inputs…</p> : null}
          {fields?.length === 0 ? <p className="text-xs text-muted">It has no run inputs: nothing to map.</p> : null}
          {(fields ?? []).map((field) => {
            const id = ids(`inputs.${field.name}`);
            const error = errorOf(`inputs.${field.name}`);
            const required = field.required && field.default === undefined;
            const help = [field.description, `${field.type}${required ? "" : field.default !== undefined ? `, default ${JSON.stringify(field.default)}` : ", optional"}`].filter(Boolean).join(" · ");
            return (
              <Field key={field.name} id={id} label={field.name} required={required} help={help} error={error}>
                <TemplateInput
                  id={id}
                  value={node.inputs[field.name] ?? ""}
                  options={references}
                  purpose={`the run input ${field.name}`}
                  placeholder={`{{ inputs.${field.name} }}`}
                  invalid={Boolean(error)}
                  describedBy={[`${id}-help`, error ? `${id}-error` : null].filter(Boolean).join(" ")}
                  onChange={(value) => setInput(field.name, value)}
                />
              </Field>
            );
          })}
          {unknownMappings.map((name) => (
            <div key={name} className="space-y-1 rounded-md border border-line px-3 py-2 text-xs">
              <p className="font-medium">{name}</p>
              {errorOf(`inputs.${name}`) ? (
                <p role="alert" className="font-medium text-caution">
                  {errorOf(`inputs.${name}`)}
                </p>
              ) : null}
              <button type="button" className="text-accent hover:underline" onClick={() => removeInput(name)}>
                Remove the mapping of {name}
              </button>
            </div>
          ))}
        </PanelSection>
      ) : null}
    </>
  );
}

export const subWorkflowEditor = {
  Panel: SubWorkflowPanel,
  problemFields: ["workflowId", "version", "inputs"],
} satisfies NodeKindEditor<SubWorkflowNode>;
