"use client";

import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { api } from "@/lib/client/api";
import {
  SecretDescriptionSchema,
  UpdateSecretBodySchema,
  type UpdateSecretBody,
  type UpdateSecretInput,
} from "@/lib/validations/secret";
import { fieldSentence as sentence } from "./form-issues";
import { SecretFormDialog, useSecretForm } from "./secret-form";
import { secretPath, type SecretRow, type SecretSaveResponse, type SecretTool, type SecretWorkflowChoice } from "./secret-types";
import { ToolSelectField } from "./tool-select";
import { UsableByField } from "./usable-by-field";

/** The description, tool and workflows of a secret; its value is left as it is. */
export function EditSecretDialog({
  secret,
  tools,
  workflows,
  onClose,
  onSaved,
}: {
  secret: SecretRow;
  tools: readonly SecretTool[];
  workflows: readonly SecretWorkflowChoice[];
  onClose: () => void;
  onSaved: (response: SecretSaveResponse) => void;
}) {
  const form = useSecretForm<UpdateSecretInput, UpdateSecretBody>(
    UpdateSecretBodySchema,
    { description: secret.description, tool: secret.tool, workflows: secret.workflows },
    ["description", "tool", "workflows"],
    async (body) => {
      const update = { description: body.description ?? "", tool: body.tool ?? null, workflows: body.workflows ?? null };
      onSaved(await api<SecretSaveResponse>(secretPath(secret.name), { method: "PUT", body: update }));
    },
  );
  const { register, control } = form;
  const { errors } = form.formState;

  const descriptionHelp = SecretDescriptionSchema.meta()?.description;
  return (
    <SecretFormDialog
      form={form}
      onClose={onClose}
      title={`Edit ${secret.name}`}
      description="The value stays as it is; replace it separately."
      submitLabel="Save changes"
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
      <UsableByField id="secret-edit-workflows" control={control} workflows={workflows} />
    </SecretFormDialog>
  );
}
