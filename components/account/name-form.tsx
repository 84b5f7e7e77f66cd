"use client";

import { useState } from "react";
import type { z } from "zod";
import { applyApiError } from "@/components/secrets/apply-api-error";
import { Button } from "@/components/ui/button";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { ErrorNotice } from "@/components/ui/page-header";
import { useZodForm } from "@/components/ui/use-zod-form";
import { api } from "@/lib/client/api";
import { ChangeNameBodySchema, type PersonView } from "@/lib/contracts/people";

type Values = z.input<typeof ChangeNameBodySchema>;

/** The person's shown name: what the header, the People page, runs and the security log say. */
export function NameForm({ displayName, onSaved }: { displayName: string; onSaved: (person: PersonView) => void }) {
  const form = useZodForm<Values, z.output<typeof ChangeNameBodySchema>>(ChangeNameBodySchema, { displayName });
  const { errors, isSubmitting, isDirty } = form.formState;
  const [saved, setSaved] = useState<string | null>(null);

  const submit = form.handleSubmit(async (values) => {
    setSaved(null);
    try {
      const { person } = await api<{ person: PersonView }>("/api/me", { method: "PATCH", body: values });
      form.reset({ displayName: person.displayName });
      setSaved(person.displayName);
      onSaved(person);
    } catch (error) {
      applyApiError(error, form.setError, ["displayName"]);
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      <Field id="display-name" label="Your name" error={errors.displayName?.message} help="What others see: in the header, on the People page, on the runs you start and the approvals you decide.">
        <div className="flex flex-wrap gap-2">
          <input
            autoComplete="name"
            className={`${CONTROL_CLASS} min-w-0 flex-1 basis-48`}
            {...form.register("displayName")}
            {...fieldAria("display-name", { help: true, error: errors.displayName?.message })}
          />
          <Button variant="primary" type="submit" disabled={isSubmitting || !isDirty}>
            {isSubmitting ? "Saving…" : "Save name"}
          </Button>
        </div>
      </Field>
      {errors.root?.server?.message ? <ErrorNotice title="Name not saved">{errors.root.server.message}</ErrorNotice> : null}
      <p role="status" className="text-sm text-safe">
        {saved ? `Saved. Others see you as ${saved}.` : ""}
      </p>
    </form>
  );
}
