"use client";

import { useId, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { CONTROL_CLASS } from "@/components/ui/field";
import { connectionChoices, edgeName, type NodeNames } from "@/lib/editor/connection-choices";
import type { Connection } from "@/lib/editor/definition-edits";
import type { WorkflowDefinition, WorkflowNode } from "@/lib/workflow/definition";
import { PanelSection } from "./panel-section";

interface ConnectionsSectionProps {
  node: WorkflowNode;
  definition: Pick<WorkflowDefinition, "nodes" | "edges">;
  names: NodeNames;
  /** Commits the connection the way a drag on the canvas does; the reason it was refused, else null. */
  onConnect: (connection: Connection) => string | null;
  onRemoveEdge: (edgeId: string) => void;
}

/**
 * The node's edges without a pointer: React Flow leaves keyboard connection
 * to the application, so what feeds this node and what it feeds are listed
 * by the other node's title, each with Remove, and "Connect to…" offers every
 * other node (per route for a router). Whether a connection is allowed is
 * decided by the same rule as a drag (edgeForConnection, through onConnect),
 * so a refusal names the same reason the canvas would.
 */
export function ConnectionsSection({ node, definition, names, onConnect, onRemoveEdge }: ConnectionsSectionProps) {
  const selectId = useId();
  const incoming = definition.edges.filter((edge) => edge.target === node.id);
  const outgoing = definition.edges.filter((edge) => edge.source === node.id);
  const choices = useMemo(() => connectionChoices(definition, node.id, names), [definition, node.id, names]);

  const [chosen, setChosen] = useState("");
  const [refusal, setRefusal] = useState<string | null>(null);
  const choice = choices.find((each) => each.value === chosen) ?? choices[0];

  const connect = () => {
    if (!choice) return;
    setRefusal(onConnect(choice.connection));
  };
  // The Remove button pressed leaves with its row; focus goes on to Connect to… instead of falling back to the page.
  const selectRef = useRef<HTMLSelectElement>(null);
  const remove = (edgeId: string) => {
    setRefusal(null);
    onRemoveEdge(edgeId);
    selectRef.current?.focus();
  };

  return (
    <PanelSection title="Connections" description="What feeds this node and what it feeds; the same as dragging between the cards' dots.">
      <EdgeList direction="from" edges={incoming.map((edge) => ({ id: edge.id, name: edgeName(names, edge.source, edge.source, edge.sourceHandle) }))} onRemove={remove} />
      <EdgeList direction="to" edges={outgoing.map((edge) => ({ id: edge.id, name: edgeName(names, edge.target, edge.source, edge.sourceHandle) }))} onRemove={remove} />
      {choices.length > 0 ? (
        <div className="space-y-1.5">
          <label htmlFor={selectId} className="block text-sm font-medium text-foreground">
            Connect to…
          </label>
          <div className="flex gap-2">
            <select
              id={selectId}
              ref={selectRef}
              className={CONTROL_CLASS}
              value={choice?.value ?? ""}
              onChange={(event) => {
                setChosen(event.target.value);
                setRefusal(null);
              }}
            >
              {choices.map((each) => (
                <option key={each.value} value={each.value}>
                  {each.label}
                </option>
              ))}
            </select>
            <Button onClick={connect}>Connect</Button>
          </div>
        </div>
      ) : null}
      <div aria-live="polite">
        {refusal ? (
          <p role="alert" className="text-xs font-medium text-caution">
            {refusal}
          </p>
        ) : null}
      </div>
    </PanelSection>
  );
}

const EDGE_LISTS = {
  from: { heading: "Inputs from", empty: "Nothing feeds this node." },
  to: { heading: "Outputs to", empty: "This node feeds nothing." },
} as const;

interface EdgeListProps {
  edges: readonly { id: string; name: string }[];
  direction: "from" | "to";
  onRemove: (edgeId: string) => void;
}

function EdgeList({ edges, direction, onRemove }: EdgeListProps) {
  const headingId = useId();
  const { heading, empty } = EDGE_LISTS[direction];
  return (
    <div className="space-y-1.5">
      <h4 id={headingId} className="text-sm font-medium text-foreground">
        {heading}
      </h4>
      {edges.length === 0 ? (
        <p className="text-xs text-muted">{empty}</p>
      ) : (
        <ul aria-labelledby={headingId} className="space-y-1">
          {edges.map((edge) => (
            <li key={edge.id} className="flex items-center justify-between gap-2 rounded-md border border-line px-2.5 py-1.5 text-sm">
              <span className="min-w-0 truncate">{edge.name}</span>
              <Button size="sm" variant="ghost" aria-label={`Remove the connection ${direction} ${edge.name}`} onClick={() => onRemove(edge.id)}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
