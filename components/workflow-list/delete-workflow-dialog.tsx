"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ErrorNotice } from "@/components/ui/page-header";
import { api, ApiError } from "@/lib/client/api";
import { workflowPath } from "./workflow-detail";
import type { WorkflowListItem } from "./workflow-list-item";
import { useRestoreFocus } from "./use-restore-focus";

/** Asks before deleting, naming the workflow and what goes with it. */
export function DeleteWorkflowDialog({
  workflow,
  onClose,
  onDeleted,
  focusAfter,
}: {
  workflow: WorkflowListItem;
  onClose: () => void;
  onDeleted: () => void;
  /** Takes focus afterwards, since the row (and its Delete button) is gone. */
  focusAfter: () => HTMLElement | null;
}) {
  useRestoreFocus(focusAfter);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function remove() {
    setPending(true);
    setError(null);
    try {
      await api<void>(workflowPath(workflow.id), { method: "DELETE" });
      onDeleted();
    } catch (failure) {
      // Already gone is what was asked for.
      if (failure instanceof ApiError && failure.status === 404) {
        onDeleted();
        return;
      }
      setPending(false);
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Delete “${workflow.name}”?`}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={pending} autoFocus>
            Cancel
          </Button>
          <Button variant="danger" onClick={remove} disabled={pending}>
            {pending ? "Deleting…" : "Delete workflow"}
          </Button>
        </>
      }
    >
      <p className="text-sm leading-relaxed">
        This deletes <strong className="font-semibold">{workflow.name}</strong>, its{" "}
        {workflow.latestVersion === 1 ? "version" : `${workflow.latestVersion} versions`}, its runs and the permissions granted to it. It
        cannot be undone; export it first to keep a copy.
      </p>
      {error ? (
        <div className="mt-4">
          <ErrorNotice title="Not deleted">{error}</ErrorNotice>
        </div>
      ) : null}
    </Dialog>
  );
}
