"use client";

import { useWatch } from "react-hook-form";
import { FormDialog } from "@/components/ui/dialog";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { useRestoreFocus } from "@/components/ui/use-restore-focus";
import { useZodForm } from "@/components/ui/use-zod-form";
import { api } from "@/lib/client/api";
import {
  CreateSecretBodySchema,
  SecretDescriptionSchema,
  SecretNameSchema,
  SecretValueSchema,
  type CreateSecretBody,
  type CreateSecretInput,
} from "@/lib/validations/secret";
import { applyApiError } from "./apply-api-error";
import { fieldSentence as sentence } from "./form-issues";
import { SecretValueInput } from "./secret-value-input";
import type { SecretSaveResponse, SecretTool } from "./secret-types";
import { ToolSelectField } from "./tool-select";

const FORM_ID = "create-secret-form";
const FIELDS = ["name", "value", "description", "tool"] as const;

/** Stores a new secret. The form and POST /api/secrets parse with the same schema. */
export function CreateSecretDialog({
  tools,
  onClose,
  onSaved,
}: {
  tools: readonly SecretTool[];
  onClose: () => void;
  onSaved: (response: SecretSaveResponse) => void;
}) {
  useRestoreFocus();
  const { register, control, handleSubmit, setError, formState } = useZodForm<CreateSecretInput, CreateSecretBody>(CreateSecretBodySchema, { name: "", value: "", description: "", tool: null });
  const { errors, isSubmitting } = formState;
  const typedName = useWatch({ control, name: "name" })?.trim() ?? "";
  const exampleName = SecretNameSchema.safeParse(typedName).success ? typedName : "NAME";

  const submit = handleSubmit(async (body) => {
    try {
      onSaved(await api<SecretSaveResponse>("/api/secrets", { body }));
    } catch (error) {
      applyApiError(error, setError, FIELDS, "name");
    }
  });

  const nameHelp = (
    <>
      Upper-case letters, digits and _ (for example DB_URL). A workflow refers to it as{" "}
      <code className="font-mono text-foreground">${`{${exampleName}}`}</code>.
    </>
  );
  const valueHelp = SecretValueSchema.meta()?.description;
  const descriptionHelp = SecretDescriptionSchema.meta()?.description;

  return (
    <FormDialog
      formId={FORM_ID}
      onSubmit={submit}
      onClose={onClose}
      title="New secret"
      description="A password, key or connection URL that workflows use without showing it."
      pending={isSubmitting}
      submitLabel="Save secret"
      pendingLabel="Saving…"
      error={errors.root?.server?.message}
      errorTitle="Not saved"
    >
      <Field id="secret-name" label="Name" required help={nameHelp} error={sentence(errors.name?.message)}>
        <input
          {...register("name")}
          {...fieldAria("secret-name", { help: true, error: sentence(errors.name?.message) })}
          className={`${CONTROL_CLASS} font-mono`}
          placeholder="DB_URL"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          autoFocus
        />
      </Field>
      <Field id="secret-value" label="Value" required help={valueHelp} error={sentence(errors.value?.message)}>
        <SecretValueInput {...register("value")} {...fieldAria("secret-value", { help: valueHelp, error: sentence(errors.value?.message) })} />
      </Field>
      <Field id="secret-description" label="Description" help={descriptionHelp} error={sentence(errors.description?.message)}>
        <input
          {...register("description")}
          {...fieldAria("secret-description", { help: descriptionHelp, error: sentence(errors.description?.message) })}
          className={CONTROL_CLASS}
          placeholder="Read-only user on the reporting database"
          autoComplete="off"
        />
      </Field>
      <ToolSelectField id="secret-tool" control={control} tools={tools} />
    </FormDialog>
  );
}
