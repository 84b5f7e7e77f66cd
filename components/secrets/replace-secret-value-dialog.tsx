"use client";

import { FormDialog } from "@/components/ui/dialog";
import { Field, fieldAria } from "@/components/ui/field";
import { useRestoreFocus } from "@/components/ui/use-restore-focus";
import { useZodForm } from "@/components/ui/use-zod-form";
import { api } from "@/lib/client/api";
import { UpdateSecretBodySchema, type UpdateSecretBody, type UpdateSecretInput } from "@/lib/validations/secret";
import { applyApiError } from "./apply-api-error";
import { fieldSentence as sentence } from "./form-issues";
import { SecretValueInput } from "./secret-value-input";
import { secretPath, type SecretRow, type SecretSaveResponse } from "./secret-types";

const FORM_ID = "replace-secret-value-form";

/** A new value for a secret; its name, description and tool stay. */
export function ReplaceSecretValueDialog({
  secret,
  onClose,
  onSaved,
}: {
  secret: SecretRow;
  onClose: () => void;
  onSaved: (response: SecretSaveResponse) => void;
}) {
  useRestoreFocus();
  const { register, handleSubmit, setError, formState } = useZodForm<UpdateSecretInput, UpdateSecretBody>(UpdateSecretBodySchema, { value: "" });
  const { errors, isSubmitting } = formState;

  const submit = handleSubmit(async (body) => {
    try {
      onSaved(await api<SecretSaveResponse>(secretPath(secret.name), { method: "PUT", body: { value: body.value } }));
    } catch (error) {
      applyApiError(error, setError, ["value"] as const);
    }
  });

  const help = "The old value is replaced and cannot be recovered. Workflows that use it pick up the new one on their next run.";
  return (
    <FormDialog
      formId={FORM_ID}
      onSubmit={submit}
      onClose={onClose}
      title={`Replace the value of ${secret.name}`}
      pending={isSubmitting}
      submitLabel="Replace value"
      pendingLabel="Saving…"
      error={errors.root?.server?.message}
      errorTitle="Not saved"
    >
      <Field id="secret-new-value" label="New value" required help={help} error={sentence(errors.value?.message)}>
        <SecretValueInput {...register("value")} {...fieldAria("secret-new-value", { help, error: errors.value?.message })} autoFocus />
      </Field>
    </FormDialog>
  );
}
