"use client";

import { z } from "zod";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { useZodForm } from "@/components/ui/use-zod-form";
import { AcceptInvitationBodySchema, MIN_PASSWORD_LENGTH, passwordProblem } from "@/lib/contracts/people";

/** The API's own schema, without the secret (the page holds it), and the password rule the server applies. */
const FormSchema = AcceptInvitationBodySchema.omit({ secret: true }).superRefine((body, context) => {
  const problem = passwordProblem(body.password, body.login);
  if (problem) context.addIssue({ code: "custom", path: ["password"], message: problem });
});
type FormInput = z.input<typeof FormSchema>;

const PASSWORD_HELP = `At least ${MIN_PASSWORD_LENGTH} characters; a few words together are easy to remember and hard to guess.`;

/** Makes the invited person's sign-in: a name to sign in with, a name others see, a password; then signs them in. */
export function AcceptInvitationForm({ secret }: { secret: string }) {
  const form = useZodForm<FormInput, z.output<typeof FormSchema>>(FormSchema, { login: "", displayName: "", password: "" });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    try {
      const response = await fetch("/api/invitations/accept", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...values, secret }),
      });
      if (response.ok) {
        // A whole page load: the header must be drawn anew for the person now signed in.
        window.location.replace("/workflows");
        return;
      }
      const body = (await response.json().catch(() => ({}))) as { error?: string; issues?: { path: string; message: string }[] };
      const fields = new Set(["login", "displayName", "password"]);
      const onField = (body.issues ?? []).filter((issue) => fields.has(issue.path));
      for (const issue of onField) form.setError(issue.path as keyof FormInput, { message: issue.message });
      if (onField.length === 0) form.setError("root", { message: body.error ?? "Could not join." });
    } catch {
      form.setError("root", { message: "The studio did not answer. Is it running?" });
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <Field id="login" label="Sign-in name" help="Your e-mail address, or a short name." error={errors.login?.message}>
        <input autoComplete="username" className={CONTROL_CLASS} {...form.register("login")} {...fieldAria("login", { help: true, error: errors.login?.message })} />
      </Field>
      <Field id="displayName" label="Your name" help="Shown on what you decide and run." error={errors.displayName?.message}>
        <input autoComplete="name" className={CONTROL_CLASS} {...form.register("displayName")} {...fieldAria("displayName", { help: true, error: errors.displayName?.message })} />
      </Field>
      <Field id="password" label="Password" help={PASSWORD_HELP} error={errors.password?.message}>
        <input type="password" autoComplete="new-password" className={CONTROL_CLASS} {...form.register("password")} {...fieldAria("password", { help: true, error: errors.password?.message })} />
      </Field>
      {errors.root ? (
        <p role="alert" className="rounded-md bg-caution-soft px-3 py-2 text-sm text-caution">
          {errors.root.message}
        </p>
      ) : null}
      <button type="submit" disabled={isSubmitting} className="w-full rounded-md bg-accent px-4 py-2 text-sm font-medium text-accent-foreground disabled:opacity-60">
        {isSubmitting ? "Joining…" : "Join"}
      </button>
    </form>
  );
}
