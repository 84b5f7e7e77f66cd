"use client";

import { useMemo } from "react";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { referenceOptions } from "@/lib/schema-form/references";
import { PanelSection } from "@/components/editor/inspector/panel-section";
import { TemplateInput } from "@/components/editor/inspector/template-input";
import { fieldErrorOf } from "../field-errors";
import type { NodeInspectorPanelProps, NodeKindEditor } from "../node-kind-editor";
import { MAX_CONCURRENCY, type ForEachNode } from "./definition";

/**
 * A For each step: the list it goes through (a template over upstream data,
 * with the same picker as any other field), how many items run at once, and
 * what one item's failure does. Its body is what its "each item" handle leads to.
 */
export function ForEachPanel({ node, definition, tools, problems, onChange }: NodeInspectorPanelProps<ForEachNode>) {
  const toolTitles = useMemo(() => new Map(tools.map((tool) => [tool.name, tool.title])), [tools]);
  const references = useMemo(() => referenceOptions(definition, node.id, toolTitles), [definition, node.id, toolTitles]);
  const errorOf = (field: string) => fieldErrorOf(problems, field);
  const ids = (field: string) => `inspector-${node.id}-${field}`;
  const listHelp = "An upstream step's list, e.g. {{ nodes.fetch.data.items }}. In the loop's body, {{ item }} is the item and {{ index }} its place (from 0).";
  const concurrencyHelp = `How many items run at once, 1 to ${MAX_CONCURRENCY}. Each item is a run of its own, with its own steps and approvals.`;
  const concurrencyError = errorOf("concurrency");
  const failureHelp = "Stop: the running items are cancelled and the step fails with the item's error. Continue: the item's error takes its place in the results.";

  return (
    <PanelSection title="Loop" description="Connect the nodes to run for each item from the card's “each item” handle, and what comes after the loop from “done”: it gets every item's result, in order.">
      {errorOf("body") ? (
        <p role="alert" className="text-xs font-medium text-caution">
          {errorOf("body")}
        </p>
      ) : null}
      <Field id={ids("list")} label="List" required help={listHelp} error={errorOf("list")}>
        <TemplateInput
          id={ids("list")}
          value={node.list}
          options={references}
          purpose="the list"
          placeholder="{{ nodes.fetch.data.items }}"
          invalid={Boolean(errorOf("list"))}
          describedBy={[`${ids("list")}-help`, errorOf("list") ? `${ids("list")}-error` : null].filter(Boolean).join(" ")}
          onChange={(list) => onChange({ ...node, list })}
        />
      </Field>
      <Field id={ids("concurrency")} label="Items at a time" help={concurrencyHelp} error={concurrencyError}>
        <input
          {...fieldAria(ids("concurrency"), { help: concurrencyHelp, error: concurrencyError })}
          type="number"
          min={1}
          max={MAX_CONCURRENCY}
          step={1}
          className={CONTROL_CLASS}
          value={node.concurrency}
          onChange={(event) => {
            const value = Number(event.target.value);
            // The schema refuses what is out of range; the field keeps the last good number.
            if (Number.isInteger(value) && value >= 1 && value <= MAX_CONCURRENCY) onChange({ ...node, concurrency: value });
          }}
        />
      </Field>
      <Field id={ids("onItemFailure")} label="When an item fails" help={failureHelp}>
        <select
          {...fieldAria(ids("onItemFailure"), { help: failureHelp })}
          className={CONTROL_CLASS}
          value={node.onItemFailure}
          onChange={(event) => onChange({ ...node, onItemFailure: event.target.value === "continue" ? "continue" : "stop" })}
        >
          <option value="stop">Stop the loop</option>
          <option value="continue">Keep its error and go on</option>
        </select>
      </Field>
    </PanelSection>
  );
}

export const forEachEditor = {
  Panel: ForEachPanel,
  problemFields: ["list", "concurrency", "onItemFailure", "body"],
} satisfies NodeKindEditor<ForEachNode>;
