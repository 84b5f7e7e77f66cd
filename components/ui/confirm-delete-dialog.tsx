"use client";

import { useState, type ReactNode } from "react";
import { api, ApiError } from "@/lib/client/api";
import { Button } from "./button";
import { Dialog } from "./dialog";
import { ErrorNotice } from "./page-header";
import { useRestoreFocus } from "./use-restore-focus";

/** What a delete dialog's holder hands it, whatever it deletes: passed through to ConfirmDeleteDialog as they are. */
export interface DeleteDialogHandlers {
  onClose: () => void;
  onDeleted: () => void;
  /** Takes focus afterwards, since the row (and its Delete button) is gone. */
  focusAfter: () => HTMLElement | null;
}

interface ConfirmDeleteDialogProps extends DeleteDialogHandlers {
  title: string;
  /** The danger button's label, e.g. "Delete secret". */
  confirmLabel: string;
  /** The danger button's label while it works ("Revoking…"). */
  pendingLabel?: string;
  /** The error's heading when it fails ("Not revoked"). */
  errorTitle?: string;
  /** The API path to DELETE. */
  path: string;
  /** What is lost, in words. */
  children: ReactNode;
}

/** Asks before deleting (or revoking) something through the API; "already gone" counts as done. */
export function ConfirmDeleteDialog({
  title,
  confirmLabel,
  pendingLabel = "Deleting…",
  errorTitle = "Not deleted",
  path,
  children,
  onClose,
  onDeleted,
  focusAfter,
}: ConfirmDeleteDialogProps) {
  useRestoreFocus(focusAfter);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function remove() {
    setPending(true);
    setError(null);
    try {
      await api<void>(path, { method: "DELETE" });
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
      title={title}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={pending} autoFocus>
            Cancel
          </Button>
          <Button variant="danger" onClick={remove} disabled={pending}>
            {pending ? pendingLabel : confirmLabel}
          </Button>
        </>
      }
    >
      <div className="text-sm leading-relaxed">{children}</div>
      {error ? (
        <div className="mt-4">
          <ErrorNotice title={errorTitle}>{error}</ErrorNotice>
        </div>
      ) : null}
    </Dialog>
  );
}
