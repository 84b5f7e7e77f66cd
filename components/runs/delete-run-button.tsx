"use client";

import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDeleteDialog, type DeleteDialogHandlers } from "@/components/ui/confirm-delete-dialog";

export interface DeleteTarget {
  runId: string;
  workflowName: string;
  /** When it started, in words, so the dialog names which run of the workflow it is. */
  startedAt: string;
}

/** Why a run cannot be deleted now, or null when it can: a run that goes on is cancelled first (the server says 409 otherwise). */
export function deleteRefusal(status: string): string | null {
  if (status === "running") return "It is running: cancel it first, then delete it.";
  if (status === "awaiting_input") return "It is waiting for input: cancel it first, then delete it.";
  return null;
}

/** Asks before deleting a run, naming it and saying what goes with it. Held by the list (one for every row) or by a button. */
export function DeleteRunDialog({ target, ...handlers }: { target: DeleteTarget } & DeleteDialogHandlers) {
  return (
    <ConfirmDeleteDialog
      title={`Delete the run of “${target.workflowName}”?`}
      confirmLabel="Delete run"
      path={`/api/runs/${encodeURIComponent(target.runId)}`}
      {...handlers}
    >
      <p>
        The run started {target.startedAt} (<code className="rounded bg-surface-sunken px-1 py-0.5 font-mono text-xs">{target.runId}</code>) is erased for
        good: its steps and their results, its events, its approvals and the runs its steps called. The workflow itself stays. The security log records
        the deletion.
      </p>
    </ConfirmDeleteDialog>
  );
}

/**
 * A Delete button with its confirmation. While the run goes on it is disabled, and the reason is shown beside it
 * (a disabled button's tooltip alone reaches neither touch screens nor every screen reader).
 */
export function DeleteRunButton({ status, onDeleted, size = "sm", ...target }: DeleteTarget & { status: string; onDeleted: () => void; size?: "sm" | "md" }) {
  const [open, setOpen] = useState(false);
  const holder = useRef<HTMLSpanElement>(null);
  const reasonId = useId();
  const refusal = deleteRefusal(status);
  return (
    <span ref={holder} className="inline-flex flex-col items-end gap-1">
      <Button
        size={size}
        variant="danger"
        disabled={refusal !== null}
        aria-describedby={refusal ? reasonId : undefined}
        aria-label={`Delete the run of ${target.workflowName} started ${target.startedAt}`}
        onClick={() => setOpen(true)}
      >
        Delete
      </Button>
      {refusal ? (
        <span id={reasonId} className="text-xs text-muted" data-testid="delete-run-refusal">
          {refusal}
        </span>
      ) : null}
      {open ? <DeleteRunDialog target={target} onClose={() => setOpen(false)} onDeleted={onDeleted} focusAfter={() => holder.current?.querySelector("button") ?? null} /> : null}
    </span>
  );
}
