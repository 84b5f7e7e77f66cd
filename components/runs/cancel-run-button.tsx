"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ErrorNotice } from "@/components/ui/page-header";
import { api, ApiError } from "@/lib/client/api";
import type { RunDetail } from "@/lib/contracts/run";

export interface CancelTarget {
  runId: string;
  workflowName: string;
}

interface CancelRunDialogProps {
  /** The run to cancel; null = closed. */
  target: CancelTarget | null;
  onClose: () => void;
  /** Called with the run after cancelling, or null after a 409 (it finished meanwhile), so lists refresh. */
  onSettled?: (run: RunDetail | null) => void;
}

/**
 * Asks before cancelling a run, and says so when it had already finished.
 * Held by the list, not by a row, so it stays open when live updates move
 * or remove the run's row.
 */
export function CancelRunDialog({ target, onClose, onSettled }: CancelRunDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ runId: string; message: string } | null>(null);
  const shownError = error && target && error.runId === target.runId ? error.message : null;

  async function cancel() {
    if (!target) return;
    setBusy(true);
    setError(null);
    try {
      const { run } = await api<{ run: RunDetail }>(`/api/runs/${encodeURIComponent(target.runId)}/cancel`, { method: "POST", body: {} });
      onClose();
      onSettled?.(run);
    } catch (caught) {
      setError({ runId: target.runId, message: caught instanceof ApiError ? caught.message : "The run could not be cancelled." });
      if (caught instanceof ApiError && caught.status === 409) onSettled?.(null);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={target !== null}
      onClose={() => {
        setError(null);
        onClose();
      }}
      title="Cancel this run?"
      description={target ? `The run of “${target.workflowName}” stops: its running tools are stopped and anything waiting for your approval is withdrawn.` : undefined}
      footer={
        shownError ? (
          <Button onClick={onClose}>Close</Button>
        ) : (
          <>
            <Button onClick={onClose} disabled={busy}>
              Keep running
            </Button>
            <Button variant="danger" onClick={() => void cancel()} disabled={busy}>
              {busy ? "Cancelling…" : "Cancel run"}
            </Button>
          </>
        )
      }
    >
      {shownError ? (
        <ErrorNotice title="Not cancelled">{shownError}</ErrorNotice>
      ) : (
        <p className="text-sm text-muted">Steps that already finished keep their results. This cannot be undone.</p>
      )}
    </Dialog>
  );
}

/** A Cancel button with its own confirmation (for a page about one run). */
export function CancelRunButton({ runId, workflowName, size = "sm", onSettled }: CancelTarget & { size?: "sm" | "md"; onSettled?: (run: RunDetail | null) => void }) {
  const [target, setTarget] = useState<CancelTarget | null>(null);
  return (
    <>
      <Button size={size} onClick={() => setTarget({ runId, workflowName })} aria-label={`Cancel the run of ${workflowName}`}>
        Cancel
      </Button>
      <CancelRunDialog target={target} onClose={() => setTarget(null)} {...(onSettled ? { onSettled } : {})} />
    </>
  );
}
