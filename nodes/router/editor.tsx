"use client";

import { useMemo } from "react";
import { Button } from "@/components/ui/button";
import { CONTROL_CLASS, Field, FieldError, fieldAria } from "@/components/ui/field";
import { referenceOptions } from "@/lib/schema-form/references";
import { move, nextRouteId } from "@/lib/schema-form/router-operators";
import { PanelSection } from "@/components/editor/inspector/panel-section";
import { TemplateInput } from "@/components/editor/inspector/template-input";
import type { NodeInspectorPanelProps, NodeKindEditor } from "../node-kind-editor";
import { OPERATOR_WORDS, type ConditionOperator, type Route, type RouterNode } from "./definition";

/** A router's routes, checked in order: the first whose condition holds is taken, else "default". */
export function RouterPanel({ node, definition, tools, problems, onChange }: NodeInspectorPanelProps<RouterNode>) {
  const toolTitles = useMemo(() => new Map(tools.map((tool) => [tool.name, tool.title])), [tools]);
  const references = useMemo(() => referenceOptions(definition, node.id, toolTitles), [definition, node.id, toolTitles]);
  const routes = node.routes;
  const setRoutes = (next: Route[]) => onChange({ ...node, routes: next });
  const change = (index: number, patch: Partial<Route>) => setRoutes(routes.map((route, position) => (position === index ? { ...route, ...patch } : route)));
  const problemAt = (index: number, field: string) =>
    problems
      .filter((problem) => problem.field === `routes[${index}].${field}`)
      .map((problem) => problem.message)
      .join(" ") || undefined;
  const routeProblems = (index: number) =>
    problems.filter((problem) => problem.field === `routes[${index}]` || problem.field === `routes[${index}].id`).map((problem) => problem.message);

  return (
    <PanelSection
      title="Routes"
      description="Checked from the top: the first route whose condition holds is taken. When none holds, the run follows “default”. Connect each route's handle on the canvas to the step it leads to."
    >
      {routes.length === 0 ? <p className="text-sm text-muted">No routes yet: every run follows “default”.</p> : null}
      <ol className="space-y-3">
        {routes.map((route, index) => {
          const prefix = `inspector-${node.id}-route-${index}`;
          const valueError = problemAt(index, "value");
          const compareError = problemAt(index, "compareTo");
          const needsCompareTo = OPERATOR_WORDS[route.operator].needsCompareTo;
          const general = routeProblems(index);
          return (
            <li key={route.id} className="space-y-3 rounded-lg border border-line bg-surface p-3 shadow-card">
              <div className="flex items-center justify-between gap-2">
                <span className="text-xs font-semibold">
                  {index + 1}. <span className="font-mono font-normal text-muted">{route.id}</span>
                </span>
                <div className="flex gap-1">
                  <Button size="sm" variant="ghost" disabled={index === 0} aria-label={`Move route ${route.label || route.id} up`} onClick={() => setRoutes(move(routes, index, index - 1))}>
                    ↑
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={index === routes.length - 1}
                    aria-label={`Move route ${route.label || route.id} down`}
                    onClick={() => setRoutes(move(routes, index, index + 1))}
                  >
                    ↓
                  </Button>
                  <Button size="sm" variant="ghost" aria-label={`Remove route ${route.label || route.id}`} onClick={() => setRoutes(routes.filter((_, position) => position !== index))}>
                    Remove
                  </Button>
                </div>
              </div>
              {general.length > 0 ? (
                <p role="alert" className="text-xs font-medium text-caution">
                  {general.join(" ")}
                </p>
              ) : null}
              <Field compact id={`${prefix}-label`} label="Label">
                <input
                  id={`${prefix}-label`}
                  className={CONTROL_CLASS}
                  value={route.label ?? ""}
                  placeholder={route.id}
                  maxLength={200}
                  onChange={(event) => change(index, { label: event.target.value === "" ? undefined : event.target.value })}
                />
              </Field>
              <Field compact id={`${prefix}-value`} label="When" error={valueError}>
                <TemplateInput
                  id={`${prefix}-value`}
                  value={route.value}
                  options={references}
                  purpose={`route ${index + 1}`}
                  placeholder="{{ nodes.check.output }}"
                  invalid={Boolean(valueError)}
                  describedBy={valueError ? `${prefix}-value-error` : undefined}
                  onChange={(value) => change(index, { value })}
                />
              </Field>
              <div className={needsCompareTo ? "grid grid-cols-2 gap-3" : ""}>
                <Field compact id={`${prefix}-operator`} label="Condition">
                  <select
                    id={`${prefix}-operator`}
                    className={CONTROL_CLASS}
                    value={route.operator}
                    onChange={(event) => change(index, { operator: event.target.value as ConditionOperator })}
                  >
                    {Object.entries(OPERATOR_WORDS).map(([operator, words]) => (
                      <option key={operator} value={operator}>
                        {words.label}
                      </option>
                    ))}
                  </select>
                </Field>
                {needsCompareTo ? (
                  // Its error goes under both columns (below), where it has the room.
                  <Field compact id={`${prefix}-compare`} label={route.operator === "matches" ? "Pattern" : "Compared to"}>
                    <input
                      {...fieldAria(`${prefix}-compare`, { error: compareError })}
                      className={`${CONTROL_CLASS} font-mono text-xs`}
                      value={route.compareTo}
                      maxLength={2000}
                      placeholder={route.operator === "matches" ? "^ok" : "a value or {{ … }}"}
                      onChange={(event) => change(index, { compareTo: event.target.value })}
                    />
                  </Field>
                ) : null}
              </div>
              <FieldError id={`${prefix}-compare`} error={compareError} />
            </li>
          );
        })}
      </ol>
      <div className="flex items-center justify-between gap-2 rounded-lg border border-dashed border-line-strong px-3 py-2 text-xs text-muted">
        <span>
          Otherwise: <span className="font-mono">default</span>
        </span>
      </div>
      <Button
        size="sm"
        onClick={() => setRoutes([...routes, { id: nextRouteId(routes.map((route) => route.id)), value: "", operator: "equals", compareTo: "" }])}
      >
        Add route
      </Button>
    </PanelSection>
  );
}

export const routerEditor = {
  Panel: RouterPanel,
  problemFields: ["routes"],
} satisfies NodeKindEditor<RouterNode>;
