"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Controller, useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { ErrorNotice } from "@/components/ui/page-header";
import { useRestoreFocus } from "@/components/ui/use-restore-focus";
import { api } from "@/lib/client/api";
import {
  SecretDescriptionSchema,
  UpdateSecretBodySchema,
  type UpdateSecretBody,
  type UpdateSecretInput,
} from "@/lib/validations/secret";
import { applyApiError } from "./apply-api-error";
import { asSentence } from "./form-issues";
import { secretPath, type SecretRow, type SecretSaveResponse, type SecretTool } from "./secret-types";
import { ToolSelect } from "./tool-select";

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
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<UpdateSecretInput, unknown, UpdateSecretBody>({
    resolver: zodResolver(UpdateSecretBodySchema),
    defaultValues: { description: secret.description, tool: secret.tool },
    mode: "onTouched",
  });

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
    <Dialog
      open
      onClose={onClose}
      title={`Edit ${secret.name}`}
      description="The value stays as it is; replace it separately."
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={isSubmitting}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form={FORM_ID} disabled={isSubmitting}>
            {isSubmitting ? "Saving…" : "Save changes"}
          </Button>
        </>
      }
    >
      <form id={FORM_ID} onSubmit={submit} noValidate className="space-y-5">
        <Field id="secret-edit-description" label="Description" help={descriptionHelp} error={sentence(errors.description?.message)}>
          <input
            {...register("description")}
            {...fieldAria("secret-edit-description", { help: descriptionHelp, error: sentence(errors.description?.message) })}
            className={CONTROL_CLASS}
            autoComplete="off"
            autoFocus
          />
        </Field>
        <Controller
          control={control}
          name="tool"
          render={({ field, fieldState }) => (
            <ToolSelect
              id="secret-edit-tool"
              tools={tools}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={sentence(fieldState.error?.message)}
            />
          )}
        />
        {errors.root?.server?.message ? <ErrorNotice title="Not saved">{errors.root.server.message}</ErrorNotice> : null}
      </form>
    </Dialog>
  );
}

/** zod's messages are phrases ("enter the secret's value"); a field shows a sentence. */
function sentence(message: string | undefined): string | undefined {
  return message ? asSentence(message) : undefined;
}
