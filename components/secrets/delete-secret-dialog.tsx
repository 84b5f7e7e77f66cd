"use client";

import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
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
  return (
    <ConfirmDeleteDialog
      title={`Delete ${secret.name}?`}
      confirmLabel="Delete secret"
      path={secretPath(secret.name)}
      onClose={onClose}
      onDeleted={onDeleted}
      focusAfter={focusAfter}
    >
      <p>
        The value is erased for good. Steps that refer to{" "}
        <code className="rounded bg-surface-sunken px-1 py-0.5 font-mono text-xs">${`{${secret.name}}`}</code> fail until a secret with
        that name is stored again.
      </p>
    </ConfirmDeleteDialog>
  );
}
