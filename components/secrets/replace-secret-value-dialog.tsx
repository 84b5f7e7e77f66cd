"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, fieldAria } from "@/components/ui/field";
import { ErrorNotice } from "@/components/ui/page-header";
import { useRestoreFocus } from "@/components/ui/use-restore-focus";
import { api } from "@/lib/client/api";
import { UpdateSecretBodySchema, type UpdateSecretBody, type UpdateSecretInput } from "@/lib/validations/secret";
import { applyApiError } from "./apply-api-error";
import { asSentence } from "./form-issues";
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
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<UpdateSecretInput, unknown, UpdateSecretBody>({
    resolver: zodResolver(UpdateSecretBodySchema),
    defaultValues: { value: "" },
    mode: "onTouched",
  });

  const submit = handleSubmit(async (body) => {
    try {
      onSaved(await api<SecretSaveResponse>(secretPath(secret.name), { method: "PUT", body: { value: body.value } }));
    } catch (error) {
      applyApiError(error, setError, ["value"] as const);
    }
  });

  const help = "The old value is replaced and cannot be recovered. Workflows that use it pick up the new one on their next run.";
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Replace the value of ${secret.name}`}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={isSubmitting}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form={FORM_ID} disabled={isSubmitting}>
            {isSubmitting ? "Saving…" : "Replace value"}
          </Button>
        </>
      }
    >
      <form id={FORM_ID} onSubmit={submit} noValidate className="space-y-5">
        <Field id="secret-new-value" label="New value" required help={help} error={sentence(errors.value?.message)}>
          <SecretValueInput {...register("value")} {...fieldAria("secret-new-value", { help, error: errors.value?.message })} autoFocus />
        </Field>
        {errors.root?.server?.message ? <ErrorNotice title="Not saved">{errors.root.server.message}</ErrorNotice> : null}
      </form>
    </Dialog>
  );
}

/** zod's messages are phrases ("enter the secret's value"); a field shows a sentence. */
function sentence(message: string | undefined): string | undefined {
  return message ? asSentence(message) : undefined;
}
