"use client";

import Link from "next/link";
import { Button } from "@/components/ui/button";
import { StatusBadge } from "@/components/ui/status-badge";
import { RelativeTime } from "./relative-time";
import type { WorkflowListItem } from "./workflow-list-item";

export type WorkflowAction = "rename" | "duplicate" | "export" | "delete";

/** One workflow in the list: its title opens the editor; the buttons act on it. */
export function WorkflowRow({
  workflow,
  busy,
  onAction,
}: {
  workflow: WorkflowListItem;
  /** The action in progress on this row, if any. */
  busy: WorkflowAction | null;
  onAction: (action: WorkflowAction, workflow: WorkflowListItem) => void;
}) {
  const action = (name: WorkflowAction, label: string, pendingLabel: string, className = "") => (
    <Button size="sm" variant="ghost" className={className} disabled={busy !== null} onClick={() => onAction(name, workflow)}>
      {busy === name ? pendingLabel : label}
      <span className="sr-only"> {workflow.name}</span>
    </Button>
  );
  return (
    <tr className="group align-top transition-colors hover:bg-surface-sunken/60">
      <td className="max-w-0 py-3.5 pl-5 pr-3">
        <Link
          href={`/workflows/${encodeURIComponent(workflow.id)}`}
          className="block truncate font-medium text-foreground hover:text-accent hover:underline"
          title={workflow.name}
        >
          {workflow.name}
        </Link>
        {workflow.description ? (
          <p className="mt-0.5 line-clamp-2 text-sm text-muted">{workflow.description}</p>
        ) : (
          <p className="mt-0.5 text-sm italic text-muted">No description</p>
        )}
      </td>
      <td className="whitespace-nowrap px-3 py-3.5 text-sm tabular-nums text-muted">
        v{workflow.latestVersion}
        {workflow.publishedVersion !== null ? (
          <span className="ml-2 rounded-full bg-safe-soft px-2 py-0.5 text-xs font-medium text-safe" title={`Version ${workflow.publishedVersion} is live: its triggers start runs`}>
            Live v{workflow.publishedVersion}
          </span>
        ) : null}
      </td>
      <td className="whitespace-nowrap px-3 py-3.5">
        {workflow.lastRunStatus ? (
          <StatusBadge status={workflow.lastRunStatus} />
        ) : (
          <span className="text-sm text-muted">never run</span>
        )}
      </td>
      <td className="whitespace-nowrap px-3 py-3.5 text-sm text-muted">
        <RelativeTime value={workflow.updatedAt} />
      </td>
      <td className="whitespace-nowrap py-3 pl-3 pr-4 text-right">
        <div className="flex justify-end gap-0.5">
          {action("rename", "Rename", "Renaming…")}
          {action("duplicate", "Duplicate", "Duplicating…")}
          {action("export", "Export", "Exporting…")}
          {action("delete", "Delete", "Deleting…", "text-caution! hover:bg-caution-soft!")}
        </div>
      </td>
    </tr>
  );
}
