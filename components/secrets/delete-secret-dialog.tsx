"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ErrorNotice } from "@/components/ui/page-header";
import { useRestoreFocus } from "@/components/workflow-list/use-restore-focus";
import { api, ApiError } from "@/lib/client/api";
import { secretPath, type SecretRow } from "./secret-types";

/** Asks before deleting a secret, saying what stops working. */
export function DeleteSecretDialog({
  secret,
  onClose,
  onDeleted,
  focusAfter,
}: {
  secret: SecretRow;
  onClose: () => void;
  onDeleted: () => void;
  focusAfter: () => HTMLElement | null;
}) {
  useRestoreFocus(focusAfter);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function remove() {
    setPending(true);
    setError(null);
    try {
      await api<void>(secretPath(secret.name), { method: "DELETE" });
      onDeleted();
    } catch (failure) {
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
      title={`Delete ${secret.name}?`}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={pending} autoFocus>
            Cancel
          </Button>
          <Button variant="danger" onClick={remove} disabled={pending}>
            {pending ? "Deleting…" : "Delete secret"}
          </Button>
        </>
      }
    >
      <p className="text-sm leading-relaxed">
        The value is erased for good. Steps that refer to{" "}
        <code className="rounded bg-surface-sunken px-1 py-0.5 font-mono text-xs">${`{${secret.name}}`}</code> fail until a secret with
        that name is stored again.
      </p>
      {error ? (
        <div className="mt-4">
          <ErrorNotice title="Not deleted">{error}</ErrorNotice>
        </div>
      ) : null}
    </Dialog>
  );
}
