"use client";

import { useMemo } from "react";
import { CodeEditor } from "@/components/code-editor/code-editor";
import { useEditorReadOnly } from "@/components/editor/read-only-context";
import { PanelSection } from "@/components/editor/inspector/panel-section";
import { TemplateInput } from "@/components/editor/inspector/template-input";
import { useSamples } from "@/components/editor/samples";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { codeCompletions } from "@/lib/editor/code-completion";
import { completionFields, EMPTY_SAMPLE_SCOPE, referenceGroups } from "@/lib/editor/field-mapping";
import { referenceOptions } from "@/lib/schema-form/references";
import { loopBodies } from "@/lib/workflow/loop-body";
import { fieldErrorOf } from "../field-errors";
import type { NodeInspectorPanelProps, NodeKindEditor } from "../node-kind-editor";
import { CODE_TIME_LIMIT, type CodeNode } from "./definition";

/**
 * A Code step: its JavaScript in a code editor that completes the names the code receives and the upstream fields
 * the samples show, whether it runs once or once per item of a list, and its time limit. A syntax error is
 * underlined where validation found it. "Test this step" (the inspector's) runs it on the pinned or last data.
 */
export function CodePanel({ node, definition, tools, problems, onChange }: NodeInspectorPanelProps<CodeNode>) {
  const readOnly = useEditorReadOnly();
  const samples = useSamples();
  const toolTitles = useMemo(() => new Map(tools.map((tool) => [tool.name, tool.title])), [tools]);
  const references = useMemo(() => referenceOptions(definition, node.id, toolTitles), [definition, node.id, toolTitles]);
  const inLoopBody = useMemo(() => [...loopBodies(definition).values()].some((body) => body.has(node.id)), [definition, node.id]);
  const scope = samples?.scope ?? EMPTY_SAMPLE_SCOPE;
  const completions = useMemo(
    () => codeCompletions(completionFields(referenceGroups(references, scope)), inLoopBody || node.mode === "each"),
    [references, scope, inLoopBody, node.mode],
  );
  const errorOf = (field: string) => fieldErrorOf(problems, field);
  const ids = (field: string) => `inspector-${node.id}-${field}`;
  const codeError = errorOf("code");
  const located = problems.find((problem) => problem.field === "code" && problem.at);
  const marked = useMemo(() => (located?.at ? { ...located.at, message: located.message } : null), [located]);
  const codeHelp =
    "The body of a function: it receives inputs, nodes (nodes.<id>.data)" +
    (inLoopBody || node.mode === "each" ? ", item and index" : "") +
    " and returns a JSON value, the step's result. It runs in a sandbox: no files, network, environment or secrets; ${NAME} is text here.";
  const timeHelp = `Milliseconds, ${CODE_TIME_LIMIT.minMs} to ${CODE_TIME_LIMIT.maxMs.toLocaleString("en")}${node.mode === "each" ? ", for all the items together" : ""}. Memory (64 MiB) and the result's size (5 MiB) are bounded too.`;
  const timeError = errorOf("timeLimitMs");

  return (
    <PanelSection title="Code" description="JavaScript that reshapes data: filter, join, compute, format.">
      <Field id={ids("mode")} label="Runs" help="Once with everything, or once per item of a list (each item's result in order).">
        <select
          {...fieldAria(ids("mode"), { help: true })}
          className={CONTROL_CLASS}
          value={node.mode}
          onChange={(event) => onChange({ ...node, mode: event.target.value === "each" ? "each" : "once" })}
        >
          <option value="once">Once, for everything</option>
          <option value="each">Once per item of a list</option>
        </select>
      </Field>
      {node.mode === "each" ? (
        <>
          <Field id={ids("list")} label="List" required help="An upstream step's list, e.g. {{ nodes.fetch.data.items }}: the code runs once per item, with item and index." error={errorOf("list")}>
            <TemplateInput
              id={ids("list")}
              value={node.list}
              options={references}
              purpose="the list"
              replace
              placeholder="{{ nodes.fetch.data.items }}"
              invalid={Boolean(errorOf("list"))}
              describedBy={[`${ids("list")}-help`, errorOf("list") ? `${ids("list")}-error` : null].filter(Boolean).join(" ")}
              onChange={(list) => onChange({ ...node, list })}
            />
          </Field>
          <Field id={ids("onItemFailure")} label="When an item fails" help="Stop: the step fails with the item's error. Continue: the item's error takes its place in the results.">
            <select
              {...fieldAria(ids("onItemFailure"), { help: true })}
              className={CONTROL_CLASS}
              value={node.onItemFailure}
              onChange={(event) => onChange({ ...node, onItemFailure: event.target.value === "continue" ? "continue" : "stop" })}
            >
              <option value="stop">Stop: the step fails</option>
              <option value="continue">Keep its error and go on</option>
            </select>
          </Field>
        </>
      ) : null}
      <Field id={ids("code")} label="Code" required help={codeHelp} error={codeError}>
        <CodeEditor
          id={ids("code")}
          value={node.code}
          onChange={(code) => onChange({ ...node, code })}
          completions={completions}
          marked={marked}
          readOnly={readOnly}
          label="Code"
          invalid={Boolean(codeError)}
          describedBy={[`${ids("code")}-help`, codeError ? `${ids("code")}-error` : null].filter(Boolean).join(" ")}
        />
      </Field>
      <Field id={ids("timeLimitMs")} label="Time limit" help={timeHelp} error={timeError}>
        <input
          {...fieldAria(ids("timeLimitMs"), { help: timeHelp, error: timeError })}
          type="number"
          min={CODE_TIME_LIMIT.minMs}
          max={CODE_TIME_LIMIT.maxMs}
          step={100}
          className={CONTROL_CLASS}
          value={node.timeLimitMs}
          onChange={(event) => {
            const value = Number(event.target.value);
            // The schema refuses what is out of range; the field keeps the last good number.
            if (Number.isInteger(value) && value >= CODE_TIME_LIMIT.minMs && value <= CODE_TIME_LIMIT.maxMs) onChange({ ...node, timeLimitMs: value });
          }}
        />
      </Field>
    </PanelSection>
  );
}

export const codeEditor = {
  Panel: CodePanel,
  problemFields: ["code", "mode", "list", "onItemFailure", "timeLimitMs"],
} satisfies NodeKindEditor<CodeNode>;
