"use client";

import { FormDialog } from "@/components/ui/dialog";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { useRestoreFocus } from "@/components/ui/use-restore-focus";
import { useZodForm } from "@/components/ui/use-zod-form";
import { api } from "@/lib/client/api";
import {
  SecretDescriptionSchema,
  UpdateSecretBodySchema,
  type UpdateSecretBody,
  type UpdateSecretInput,
} from "@/lib/validations/secret";
import { applyApiError } from "./apply-api-error";
import { fieldSentence as sentence } from "./form-issues";
import { secretPath, type SecretRow, type SecretSaveResponse, type SecretTool } from "./secret-types";
import { ToolSelectField } from "./tool-select";

const FORM_ID = "edit-secret-form";

/** The description and tool of a secret; its value is left as it is. */
export function EditSecretDialog({
  secret,
  tools,
  onClose,
  onSaved,
}: {
  secret: SecretRow;
  tools: readonly SecretTool[];
  onClose: () => void;
  onSaved: (response: SecretSaveResponse) => void;
}) {
  useRestoreFocus();
  const { register, control, handleSubmit, setError, formState } = useZodForm<UpdateSecretInput, UpdateSecretBody>(UpdateSecretBodySchema, { description: secret.description, tool: secret.tool });
  const { errors, isSubmitting } = formState;

  const submit = handleSubmit(async (body) => {
    try {
      const update = { description: body.description ?? "", tool: body.tool ?? null };
      onSaved(await api<SecretSaveResponse>(secretPath(secret.name), { method: "PUT", body: update }));
    } catch (error) {
      applyApiError(error, setError, ["description", "tool"] as const);
    }
  });

  const descriptionHelp = SecretDescriptionSchema.meta()?.description;
  return (
    <FormDialog
      formId={FORM_ID}
      onSubmit={submit}
      onClose={onClose}
      title={`Edit ${secret.name}`}
      description="The value stays as it is; replace it separately."
      pending={isSubmitting}
      submitLabel="Save changes"
      pendingLabel="Saving…"
      error={errors.root?.server?.message}
      errorTitle="Not saved"
    >
      <Field id="secret-edit-description" label="Description" help={descriptionHelp} error={sentence(errors.description?.message)}>
        <input
          {...register("description")}
          {...fieldAria("secret-edit-description", { help: descriptionHelp, error: sentence(errors.description?.message) })}
          className={CONTROL_CLASS}
          autoComplete="off"
          autoFocus
        />
      </Field>
      <ToolSelectField id="secret-edit-tool" control={control} tools={tools} />
    </FormDialog>
  );
}
