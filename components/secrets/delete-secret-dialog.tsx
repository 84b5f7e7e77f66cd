"use client";

import { ConfirmDeleteDialog, type DeleteDialogHandlers } from "@/components/ui/confirm-delete-dialog";
import { secretPath, type SecretRow } from "./secret-types";

/** Asks before deleting a secret, saying what stops working. */
export function DeleteSecretDialog({ secret, ...handlers }: { secret: SecretRow } & DeleteDialogHandlers) {
  return (
    <ConfirmDeleteDialog
      title={`Delete ${secret.name}?`}
      confirmLabel="Delete secret"
      path={secretPath(secret.name)}
      {...handlers}
    >
      <p>
        The value is erased for good. Steps that refer to{" "}
        <code className="rounded bg-surface-sunken px-1 py-0.5 font-mono text-xs">${`{${secret.name}}`}</code> fail until a secret with
        that name is stored again.
      </p>
    </ConfirmDeleteDialog>
  );
}
