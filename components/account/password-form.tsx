"use client";

import { useState, type ComponentPropsWithRef } from "react";
import { z } from "zod";
import { applyApiError } from "@/components/secrets/apply-api-error";
import { Button } from "@/components/ui/button";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { ErrorNotice } from "@/components/ui/page-header";
import { useZodForm } from "@/components/ui/use-zod-form";
import { api } from "@/lib/client/api";
import { MIN_PASSWORD_LENGTH, passwordProblem, SetPasswordBodySchema } from "@/lib/contracts/people";

const FIELDS = ["currentPassword", "newPassword", "repeatPassword"] as const;

/**
 * PUT /api/me/password's body and the repeat the form asks for, checked as
 * the server checks it (the same passwordProblem), each message naming its
 * field. Without a password yet (the first owner, in by the sign-in link),
 * there is no current one to ask for.
 */
function passwordFormSchema(login: string, hasPassword: boolean) {
  return SetPasswordBodySchema.extend({ repeatPassword: z.string() }).superRefine((values, context) => {
    if (hasPassword && !values.currentPassword) context.addIssue({ code: "custom", path: ["currentPassword"], message: "Enter your current password." });
    const problem = passwordProblem(values.newPassword, login);
    if (problem) context.addIssue({ code: "custom", path: ["newPassword"], message: `New password: ${problem}.` });
    else if (values.repeatPassword !== values.newPassword) context.addIssue({ code: "custom", path: ["repeatPassword"], message: "Repeat the new password exactly: the two differ." });
  });
}
type Values = z.input<ReturnType<typeof passwordFormSchema>>;

/** Changes (or, for the first owner who has none, sets) the person's own password; their other browsers are signed out. */
export function PasswordForm({ login, hasPassword, onChanged }: { login: string; hasPassword: boolean; onChanged: () => void }) {
  const form = useZodForm<Values, z.output<ReturnType<typeof passwordFormSchema>>>(passwordFormSchema(login, hasPassword), {
    currentPassword: "",
    newPassword: "",
    repeatPassword: "",
  });
  const { errors, isSubmitting } = form.formState;
  const [done, setDone] = useState(false);

  const submit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    setDone(false);
    try {
      await api("/api/me/password", { method: "PUT", body: hasPassword ? { currentPassword, newPassword } : { newPassword } });
      form.reset();
      setDone(true);
      onChanged();
    } catch (error) {
      applyApiError(error, form.setError, FIELDS);
    }
  });

  return (
    <form onSubmit={submit} noValidate className="max-w-md space-y-4">
      {/* For password managers: whose password this is. */}
      <input type="text" name="username" autoComplete="username" value={login} readOnly hidden />
      {hasPassword ? (
        <PasswordField id="current-password" label="Current password" autoComplete="current-password" error={errors.currentPassword?.message} {...form.register("currentPassword")} />
      ) : (
        <p className="text-sm text-muted">
          You sign in with the studio&apos;s link or access token. Set a password to sign in with your sign-in name instead; you may be asked to confirm it is
          you first.
        </p>
      )}
      <PasswordField
        id="new-password"
        label="New password"
        autoComplete="new-password"
        help={`At least ${MIN_PASSWORD_LENGTH} characters; a few words together are easy to remember.`}
        error={errors.newPassword?.message}
        {...form.register("newPassword")}
      />
      <PasswordField id="repeat-password" label="Repeat the new password" autoComplete="new-password" error={errors.repeatPassword?.message} {...form.register("repeatPassword")} />
      {errors.root?.server?.message ? <ErrorNotice title="Password not changed">{errors.root.server.message}</ErrorNotice> : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="primary" type="submit" disabled={isSubmitting}>
          {isSubmitting ? "Saving…" : hasPassword ? "Change password" : "Set password"}
        </Button>
        <p role="status" className="text-sm text-safe">
          {done ? "Password saved. Your other browsers are signed out." : ""}
        </p>
      </div>
    </form>
  );
}

/** One of the form's password boxes, in its Field with its help and inline error. */
function PasswordField({ id, label, help, error, ...input }: { id: string; label: string; help?: string; error?: string | undefined } & ComponentPropsWithRef<"input">) {
  return (
    <Field id={id} label={label} help={help} error={error}>
      <input type="password" className={CONTROL_CLASS} {...input} {...fieldAria(id, { help, error })} />
    </Field>
  );
}
