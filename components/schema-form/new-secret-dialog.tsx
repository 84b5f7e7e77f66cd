"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { ErrorNotice } from "@/components/ui/page-header";
import { api, ApiError } from "@/lib/client/api";
import { SecretDescriptionSchema, SecretNameSchema, SecretValueSchema } from "@/lib/validations/secret";

const NewSecretSchema = z.object({ name: SecretNameSchema, value: SecretValueSchema, description: SecretDescriptionSchema });
type NewSecret = z.infer<typeof NewSecretSchema>;

interface NewSecretDialogProps {
  open: boolean;
  /** The tool the secret is stored for: its picker offers it. */
  tool: string | null;
  toolTitle: string;
  credentialHelp: string;
  onClose: () => void;
  /** Called with the stored name and the tool's verdict on the value ("" when usable). */
  onCreated: (name: string, problem: string) => void;
}

/** Stores a new secret for a tool; the value is sent once and never shown again. */
export function NewSecretDialog({ open, tool, toolTitle, credentialHelp, onClose, onCreated }: NewSecretDialogProps) {
  const form = useForm<NewSecret>({ resolver: zodResolver(NewSecretSchema), defaultValues: { name: "", value: "", description: "" } });
  const { errors, isSubmitting } = form.formState;
  const idPrefix = `new-secret-${tool ?? "untied"}`;

  const submit = form.handleSubmit(async (values) => {
    try {
      const body = await api<{ problem?: string | null }>("/api/secrets", { method: "POST", body: { ...values, tool } });
      form.reset();
      onCreated(values.name, body.problem ?? "");
    } catch (caught) {
      if (caught instanceof ApiError) {
        for (const issue of caught.issues) {
          if (issue.path === "name" || issue.path === "value" || issue.path === "description") form.setError(issue.path, { message: issue.message });
        }
        if (caught.status === 409) form.setError("name", { message: caught.message });
        else if (caught.issues.length === 0) form.setError("root", { message: caught.message });
      } else {
        form.setError("root", { message: caught instanceof Error ? caught.message : String(caught) });
      }
    }
  });

  const nameError = errors.name?.message;
  const valueError = errors.value?.message;
  const descriptionError = errors.description?.message;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={`New secret for ${toolTitle}`}
      description="The value is stored encrypted and never shown again. The workflow refers to it by name."
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form={`${idPrefix}-form`} disabled={isSubmitting}>
            {isSubmitting ? "Saving…" : "Save secret"}
          </Button>
        </>
      }
    >
      <form id={`${idPrefix}-form`} className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
        {errors.root?.message ? <ErrorNotice title="The secret was not saved">{errors.root.message}</ErrorNotice> : null}
        <Field id={`${idPrefix}-name`} label="Name" required help="Upper-case letters, digits and _, e.g. DB_URL. Used as ${NAME}." error={nameError}>
          <input
            {...fieldAria(`${idPrefix}-name`, { help: true, error: nameError })}
            {...form.register("name")}
            className={`${CONTROL_CLASS} font-mono`}
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
        <Field id={`${idPrefix}-value`} label="Value" required help={credentialHelp || undefined} error={valueError}>
          <input
            {...fieldAria(`${idPrefix}-value`, { help: credentialHelp, error: valueError })}
            {...form.register("value")}
            type="password"
            className={CONTROL_CLASS}
            autoComplete="new-password"
          />
        </Field>
        <Field id={`${idPrefix}-description`} label="Description" help="What this secret is for." error={descriptionError}>
          <input
            {...fieldAria(`${idPrefix}-description`, { help: true, error: descriptionError })}
            {...form.register("description")}
            className={CONTROL_CLASS}
          />
        </Field>
      </form>
    </Dialog>
  );
}
