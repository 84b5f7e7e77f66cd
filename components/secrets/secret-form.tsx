"use client";

import type { FieldValues } from "react-hook-form";
import { ApiFormDialog, useApiForm, type ApiFormDialogProps } from "@/components/ui/api-form";
import { useRestoreFocus } from "@/components/ui/use-restore-focus";

/**
 * The form of a secret dialog (new, edit, replace the value): a useApiForm
 * form whose focus goes back where it was when the dialog closes.
 */
export function useSecretForm<Input extends FieldValues, Output extends FieldValues>(...form: Parameters<typeof useApiForm<Input, Output>>) {
  useRestoreFocus();
  return useApiForm<Input, Output>(...form);
}

/** A secret dialog's frame: it says "Saving…" while it saves, and what the API refused outside the fields shows as "Not saved". */
export function SecretFormDialog<Input extends FieldValues>(props: Omit<ApiFormDialogProps<Input>, "pendingLabel" | "errorTitle">) {
  return <ApiFormDialog {...props} pendingLabel="Saving…" errorTitle="Not saved" />;
}
