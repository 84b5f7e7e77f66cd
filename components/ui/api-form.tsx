"use client";

import type { BaseSyntheticEvent } from "react";
import type { DefaultValues, FieldPath, FieldValues, FormState, UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import { applyApiError } from "@/components/secrets/apply-api-error";
import { FormDialog, type FormDialogProps } from "@/components/ui/dialog";
import { useZodForm } from "@/components/ui/use-zod-form";

/**
 * A form sent to the API: checked with the schema the API parses with (useZodForm), sent by `send`, and a refusal
 * put on the fields it names (`fields`; a taken name on `conflictField`) or, for the rest, on the form as a whole.
 */
export function useApiForm<Input extends FieldValues, Output extends FieldValues>(
  schema: z.ZodType<Output, Input>,
  defaultValues: DefaultValues<Input>,
  fields: readonly FieldPath<Input>[],
  send: (values: Output) => Promise<void>,
  conflictField?: FieldPath<Input>,
): UseFormReturn<Input, unknown, Output> & { submit: (event?: BaseSyntheticEvent) => Promise<void> } {
  const form = useZodForm<Input, Output>(schema, defaultValues);
  const submit = form.handleSubmit(async (values) => {
    try {
      await send(values);
    } catch (error) {
      applyApiError(error, form.setError, fields, conflictField);
    }
  });
  return { ...form, submit };
}

export type ApiFormDialogProps<Input extends FieldValues> = Omit<FormDialogProps, "onSubmit" | "pending" | "error"> & {
  form: { submit: (event?: BaseSyntheticEvent) => Promise<void>; formState: FormState<Input> };
};

/** The dialog of a useApiForm form: pending while it sends, and what the API refused outside the fields shown under them. */
export function ApiFormDialog<Input extends FieldValues>({ form, ...frame }: ApiFormDialogProps<Input>) {
  return <FormDialog {...frame} onSubmit={form.submit} pending={form.formState.isSubmitting} error={form.formState.errors.root?.server?.message} />;
}
