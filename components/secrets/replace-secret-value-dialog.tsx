"use client";

import { Field, fieldAria } from "@/components/ui/field";
import { api } from "@/lib/client/api";
import { UpdateSecretBodySchema, type UpdateSecretBody, type UpdateSecretInput } from "@/lib/validations/secret";
import { fieldSentence as sentence } from "./form-issues";
import { SecretFormDialog, useSecretForm } from "./secret-form";
import { SecretValueInput } from "./secret-value-input";
import { secretPath, type SecretRow, type SecretSaveResponse } from "./secret-types";

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
  const form = useSecretForm<UpdateSecretInput, UpdateSecretBody>(UpdateSecretBodySchema, { value: "" }, ["value"], async (body) =>
    onSaved(await api<SecretSaveResponse>(secretPath(secret.name), { method: "PUT", body: { value: body.value } })),
  );
  const { errors } = form.formState;

  const help = "The old value is replaced and cannot be recovered. Workflows that use it pick up the new one on their next run.";
  return (
    <SecretFormDialog form={form} onClose={onClose} title={`Replace the value of ${secret.name}`} submitLabel="Replace value">
      <Field id="secret-new-value" label="New value" required help={help} error={sentence(errors.value?.message)}>
        <SecretValueInput {...form.register("value")} {...fieldAria("secret-new-value", { help, error: errors.value?.message })} autoFocus />
      </Field>
    </SecretFormDialog>
  );
}
