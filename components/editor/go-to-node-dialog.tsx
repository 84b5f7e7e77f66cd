"use client";

import { useId, useMemo, useState, type KeyboardEvent } from "react";
import { Dialog } from "@/components/ui/dialog";
import { CONTROL_CLASS } from "@/components/ui/field";
import { matchingNodes, type NodeChoice } from "@/lib/editor/node-search";

interface GoToNodeDialogProps {
  open: boolean;
  nodes: readonly NodeChoice[];
  onClose: () => void;
  /** Brings the node into view, selects it and gives its card focus. */
  onGo: (nodeId: string) => void;
}

/**
 * Go to node…: every node of the workflow in one list, filtered as you type,
 * whether its card is on screen or not. The canvas draws only the cards in
 * view (which keeps 2,000 nodes fast), so without this list a keyboard could
 * reach only those. A combobox over a listbox: arrows move, Enter goes.
 */
export function GoToNodeDialog({ open, nodes, onClose, onGo }: GoToNodeDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} title="Go to node" description="Type part of a node's title, tool or kind; Enter brings it into view and gives it focus.">
      {open ? <NodeFinder nodes={nodes} onGo={onGo} /> : null}
    </Dialog>
  );
}

function NodeFinder({ nodes, onGo }: { nodes: readonly NodeChoice[]; onGo: (nodeId: string) => void }) {
  const id = useId();
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const found = useMemo(() => matchingNodes(nodes, query), [nodes, query]);
  const activeIndex = Math.min(active, Math.max(found.length - 1, 0));
  const activeNode = found[activeIndex];
  const optionId = (nodeId: string) => `${id}-option-${nodeId}`;

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (found.length === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((activeIndex + step + found.length) % found.length);
      return;
    }
    if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      setActive(event.key === "Home" ? 0 : found.length - 1);
      return;
    }
    if (event.key === "Enter") {
      event.preventDefault();
      if (activeNode) onGo(activeNode.id);
    }
  };

  return (
    <div className="space-y-3">
      <label htmlFor={`${id}-query`} className="sr-only">
        Find a node
      </label>
      <input
        id={`${id}-query`}
        role="combobox"
        aria-expanded="true"
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={activeNode ? optionId(activeNode.id) : undefined}
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        placeholder="Find a node"
        autoComplete="off"
        autoFocus
        className={CONTROL_CLASS}
      />
      <p className="text-xs text-muted" role="status">
        {found.length === nodes.length ? `${nodes.length} node${nodes.length === 1 ? "" : "s"}` : `${found.length} of ${nodes.length} nodes match`}
      </p>
      <ul id={`${id}-list`} role="listbox" aria-label="Nodes" hidden={found.length === 0} className="max-h-80 overflow-y-auto rounded-md border border-line">
        {found.map((node, index) => (
          <li
            key={node.id}
            id={optionId(node.id)}
            role="option"
            aria-selected={index === activeIndex}
            onClick={() => onGo(node.id)}
            onMouseMove={() => setActive(index)}
            className={`cursor-pointer px-3 py-2 text-sm [overflow-wrap:anywhere] ${index === activeIndex ? "bg-accent-soft text-foreground" : "text-foreground"}`}
            // The active option scrolls into view as the arrows move through a long list.
            ref={index === activeIndex ? (element) => element?.scrollIntoView({ block: "nearest" }) : undefined}
          >
            {node.name}
          </li>
        ))}
      </ul>
      {found.length === 0 ? <p className="text-sm text-muted">No node matches “{query}”.</p> : null}
    </div>
  );
}
