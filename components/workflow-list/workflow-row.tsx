"use client";

import Link from "next/link";
import { Button } from "@/components/ui/button";
import { StatusBadge } from "@/components/ui/status-badge";
import { CardActions, CardCell, RowCard } from "@/components/ui/row-cards";
import { RelativeTime } from "./relative-time";
import type { WorkflowListItem } from "./workflow-list-item";

export type WorkflowAction = "rename" | "duplicate" | "export" | "delete";

/** One workflow in the list: its title opens the editor; the buttons act on it. */
export function WorkflowRow({
  workflow,
  busy,
  mayEdit,
  onAction,
}: {
  workflow: WorkflowListItem;
  /** Whether Rename, Duplicate and Delete are offered (the person's role may change workflows); Export always is. */
  mayEdit: boolean;
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
    <RowCard className="group align-top transition-colors hover:bg-surface-sunken/60">
      <CardCell part="title" className="max-w-0 py-3.5 pl-4 pr-3 max-sm:max-w-none md:pl-5">
        <Link
          href={`/workflows/${encodeURIComponent(workflow.id)}`}
          // Two lines on a narrow screen, where one would cut most names short; one line beside the columns.
          className="line-clamp-2 font-medium text-foreground [overflow-wrap:anywhere] hover:text-accent hover:underline md:line-clamp-1"
          title={workflow.name}
        >
          {workflow.name}
        </Link>
        {workflow.description ? (
          <p className="mt-0.5 line-clamp-2 text-sm text-muted">{workflow.description}</p>
        ) : (
          <p className="mt-0.5 text-sm italic text-muted">No description</p>
        )}
        {/* The next three columns, on a screen too narrow for them. */}
        <p className="mt-1.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted md:hidden">
          <VersionText workflow={workflow} />
          <LastRun workflow={workflow} />
          <span>
            updated <RelativeTime value={workflow.updatedAt} />
          </span>
        </p>
      </CardCell>
      <td className="hidden whitespace-nowrap px-3 py-3.5 text-sm tabular-nums text-muted md:table-cell">
        <VersionText workflow={workflow} />
      </td>
      <td className="hidden whitespace-nowrap px-3 py-3.5 text-sm md:table-cell">
        <LastRun workflow={workflow} />
      </td>
      <td className="hidden whitespace-nowrap px-3 py-3.5 text-sm text-muted md:table-cell">
        <RelativeTime value={workflow.updatedAt} />
      </td>
      <CardCell part="actions" className="whitespace-nowrap py-3 pl-3 pr-4 text-right">
        {/* In the narrow column beside the name (sm to md) the buttons stack as one even column, not a ragged right edge. */}
        <CardActions className="gap-0.5 sm:flex-col sm:items-stretch md:flex-row md:items-center">
          {mayEdit ? action("rename", "Rename", "Renaming…") : null}
          {mayEdit ? action("duplicate", "Duplicate", "Duplicating…") : null}
          {action("export", "Export", "Exporting…")}
          {mayEdit ? action("delete", "Delete", "Deleting…", "text-caution! hover:bg-caution-soft!") : null}
        </CardActions>
      </CardCell>
    </RowCard>
  );
}

/** The newest version, and the live one when there is one. */
function VersionText({ workflow }: { workflow: WorkflowListItem }) {
  return (
    <span>
      v{workflow.latestVersion}
      {workflow.publishedVersion !== null ? (
        <span className="ml-2 rounded-full bg-safe-soft px-2 py-0.5 text-xs font-medium text-safe" title={`Version ${workflow.publishedVersion} is live: its triggers start runs`}>
          Live v{workflow.publishedVersion}
        </span>
      ) : null}
    </span>
  );
}

function LastRun({ workflow }: { workflow: WorkflowListItem }) {
  return workflow.lastRunStatus ? <StatusBadge status={workflow.lastRunStatus} /> : <span className="text-muted">never run</span>;
}
