"use client";

import { ConfirmDeleteDialog, type DeleteDialogHandlers } from "@/components/ui/confirm-delete-dialog";
import { workflowPath } from "./workflow-detail";
import type { WorkflowListItem } from "./workflow-list-item";

/** Asks before deleting, naming the workflow and what goes with it. */
export function DeleteWorkflowDialog({ workflow, ...handlers }: { workflow: WorkflowListItem } & DeleteDialogHandlers) {
  return (
    <ConfirmDeleteDialog
      title={`Delete “${workflow.name}”?`}
      confirmLabel="Delete workflow"
      path={workflowPath(workflow.id)}
      {...handlers}
    >
      <p>
        This deletes <strong className="font-semibold">{workflow.name}</strong>, its{" "}
        {workflow.latestVersion === 1 ? "version" : `${workflow.latestVersion} versions`}, its runs and the permissions granted to it. It
        cannot be undone; export it first to keep a copy.
      </p>
    </ConfirmDeleteDialog>
  );
}
