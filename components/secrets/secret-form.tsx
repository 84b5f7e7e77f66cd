"use client";

import type { BaseSyntheticEvent } from "react";
import type { DefaultValues, FieldPath, FieldValues, FormState, UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import { FormDialog, type FormDialogProps } from "@/components/ui/dialog";
import { useRestoreFocus } from "@/components/ui/use-restore-focus";
import { useZodForm } from "@/components/ui/use-zod-form";
import { applyApiError } from "./apply-api-error";

/**
 * The form of a secret dialog (new, edit, replace the value): checked with the
 * schema the API parses with, sent by `save`, and a refusal put on the fields
 * it names (`fields`; a taken name on `conflictField`) or under them. Focus
 * goes back where it was when the dialog closes.
 */
export function useSecretForm<Input extends FieldValues, Output extends FieldValues>(
  schema: z.ZodType<Output, Input>,
  defaultValues: DefaultValues<Input>,
  fields: readonly FieldPath<Input>[],
  save: (body: Output) => Promise<void>,
  conflictField?: FieldPath<Input>,
): UseFormReturn<Input, unknown, Output> & { submit: (event?: BaseSyntheticEvent) => Promise<void> } {
  useRestoreFocus();
  const form = useZodForm<Input, Output>(schema, defaultValues);
  const submit = form.handleSubmit(async (body) => {
    try {
      await save(body);
    } catch (error) {
      applyApiError(error, form.setError, fields, conflictField);
    }
  });
  return { ...form, submit };
}

type SecretFormDialogProps<Input extends FieldValues> = Pick<FormDialogProps, "onClose" | "title" | "description" | "submitLabel" | "children"> & {
  form: { submit: (event?: BaseSyntheticEvent) => Promise<void>; formState: FormState<Input> };
};

/** A secret dialog's frame: it says "Saving…" while it saves, and what the API refused outside the fields shows as "Not saved". */
export function SecretFormDialog<Input extends FieldValues>({ form, ...frame }: SecretFormDialogProps<Input>) {
  return (
    <FormDialog
      {...frame}
      onSubmit={form.submit}
      pending={form.formState.isSubmitting}
      pendingLabel="Saving…"
      error={form.formState.errors.root?.server?.message}
      errorTitle="Not saved"
    />
  );
}
