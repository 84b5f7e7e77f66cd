"use client";

import { Button } from "@/components/ui/button";
import { CONTROL_CLASS } from "@/components/ui/field";
import { ToolIcon } from "@/components/tool-icon";

interface InspectorHeaderProps {
  nodeId: string;
  /** What kind of node this is, in words: the tool's title, "Router"… */
  kindTitle: string;
  icon: string | null;
  domain?: string;
  label: string | undefined;
  /** Shown when the label is empty: the tool's title. */
  placeholder: string;
  onLabelChange: (label: string | undefined) => void;
  onDelete: () => void;
}

/** The node's name on the canvas, its id, and a way to delete it. */
export function InspectorHeader({ nodeId, kindTitle, icon, domain, label, placeholder, onLabelChange, onDelete }: InspectorHeaderProps) {
  const labelId = `inspector-${nodeId}-label`;
  return (
    <header className="space-y-3 px-4 py-4">
      <div className="flex items-center gap-2">
        <span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-accent-soft text-accent">
          <ToolIcon icon={icon} domain={domain} className="size-4" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-semibold">{kindTitle}</p>
          <p className="truncate font-mono text-[11px] text-muted">
            <span className="sr-only">Node id: </span>
            {nodeId}
          </p>
        </div>
        <Button variant="ghost" size="sm" onClick={onDelete} aria-label={`Delete node ${label || placeholder}`} className="hover:text-caution">
          Delete
        </Button>
      </div>
      <div className="space-y-1">
        <label htmlFor={labelId} className="text-xs font-medium text-muted">
          Label on the canvas
        </label>
        <input
          id={labelId}
          className={CONTROL_CLASS}
          value={label ?? ""}
          placeholder={placeholder}
          maxLength={200}
          onChange={(event) => onLabelChange(event.target.value === "" ? undefined : event.target.value)}
        />
      </div>
    </header>
  );
}
