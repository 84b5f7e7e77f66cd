"use client";

import { useWatch } from "react-hook-form";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { api } from "@/lib/client/api";
import {
  CreateSecretBodySchema,
  SecretDescriptionSchema,
  SecretNameSchema,
  SecretValueSchema,
  type CreateSecretBody,
  type CreateSecretInput,
} from "@/lib/validations/secret";
import { fieldSentence as sentence } from "./form-issues";
import { SecretFormDialog, useSecretForm } from "./secret-form";
import { SecretValueInput } from "./secret-value-input";
import type { SecretSaveResponse, SecretTool, SecretWorkflowChoice } from "./secret-types";
import { ToolSelectField } from "./tool-select";
import { UsableByField } from "./usable-by-field";

const FIELDS = ["name", "value", "description", "tool", "workflows"] as const;

/** Stores a new secret. The form and POST /api/secrets parse with the same schema. */
export function CreateSecretDialog({
  tools,
  workflows,
  onClose,
  onSaved,
}: {
  tools: readonly SecretTool[];
  workflows: readonly SecretWorkflowChoice[];
  onClose: () => void;
  onSaved: (response: SecretSaveResponse) => void;
}) {
  const form = useSecretForm<CreateSecretInput, CreateSecretBody>(
    CreateSecretBodySchema,
    { name: "", value: "", description: "", tool: null, workflows: null },
    FIELDS,
    async (body) => onSaved(await api<SecretSaveResponse>("/api/secrets", { body })),
    "name",
  );
  const { register, control } = form;
  const { errors } = form.formState;
  const typedName = useWatch({ control, name: "name" })?.trim() ?? "";
  const exampleName = SecretNameSchema.safeParse(typedName).success ? typedName : "NAME";

  const nameHelp = (
    <>
      Upper-case letters, digits and _ (for example DB_URL). A workflow refers to it as{" "}
      <code className="font-mono text-foreground">${`{${exampleName}}`}</code>.
    </>
  );
  const valueHelp = SecretValueSchema.meta()?.description;
  const descriptionHelp = SecretDescriptionSchema.meta()?.description;

  return (
    <SecretFormDialog
      form={form}
      onClose={onClose}
      title="New secret"
      description="A password, key or connection URL that workflows use without showing it."
      submitLabel="Save secret"
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
      <UsableByField id="secret-workflows" control={control} workflows={workflows} />
    </SecretFormDialog>
  );
}
