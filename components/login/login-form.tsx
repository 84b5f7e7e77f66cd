"use client";

import { useState, type FormEvent } from "react";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { safeNextPath } from "@/lib/navigation/safe-next-path";

type Method = "password" | "token";

interface FieldErrors {
  name?: string;
  password?: string;
  token?: string;
  form?: string;
}

const NAME_HELP = "With the studio's password (STUDIO_PASSWORD), any name: it is recorded on what you run and decide.";
const TOKEN_HELP = "Printed by the studio when it starts (with a sign-in link that fills this in), and kept in the file access-token in its data folder.";

/**
 * Signs in with a sign-in name and password (a person's own; or the
 * studio's one password with any name, recorded on their decisions), or with
 * the access token the studio printed when it started. Without a password
 * set, the token is the only way.
 */
export function LoginForm({ next, hasPassword, studioPassword = false }: { next: string; hasPassword: boolean; studioPassword?: boolean }) {
  const [method, setMethod] = useState<Method>(hasPassword ? "password" : "token");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get("name") ?? "").trim();
    const password = String(form.get("password") ?? "");
    const token = String(form.get("token") ?? "").trim();
    const found: FieldErrors = {};
    if (method === "password" && !name) found.name = studioPassword ? "Enter your sign-in name, or the name to record on what you do." : "Enter your sign-in name.";
    if (method === "password" && !password) found.password = "Enter the password.";
    if (method === "token" && !token) found.token = "Paste the access token.";
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    try {
      const response = await fetch("/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(method === "password" ? { name, password } : { token, ...(name ? { name } : {}) }),
      });
      if (response.ok) {
        // A whole page load: the session changed, so the layout (the header with the person's name) must be drawn
        // anew too. router.replace followed by router.refresh let the refresh of /login win the race, and the page
        // stayed on the sign-in form under a signed-in header.
        window.location.replace(safeNextPath(next));
        return;
      }
      const body = (await response.json().catch(() => ({}))) as { error?: string };
      const message = body.error ?? "Could not sign in.";
      setErrors(response.status === 401 ? { [method]: message } : { form: message });
    } catch {
      setErrors({ form: "The studio did not answer. Is it running?" });
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      {hasPassword ? (
        <div role="radiogroup" aria-label="Sign in with" className="grid grid-cols-2 gap-1 rounded-lg bg-surface-sunken p-1 text-sm">
          {(["password", "token"] as const).map((choice) => (
            <button
              key={choice}
              type="button"
              role="radio"
              aria-checked={method === choice}
              onClick={() => {
                setMethod(choice);
                setErrors({});
              }}
              className={`rounded-md px-3 py-1.5 font-medium ${method === choice ? "bg-surface shadow-card" : "text-muted hover:text-foreground"}`}
            >
              {choice === "password" ? "Password" : "Access token"}
            </button>
          ))}
        </div>
      ) : null}
      {method === "password" ? (
        <>
          <Field id="name" label="Sign-in name" help={studioPassword ? NAME_HELP : undefined} error={errors.name}>
            <input name="name" autoComplete="username" className={CONTROL_CLASS} {...fieldAria("name", { help: studioPassword, error: errors.name })} />
          </Field>
          <Field id="password" label="Password" error={errors.password}>
            <input name="password" type="password" autoComplete="current-password" className={CONTROL_CLASS} {...fieldAria("password", { error: errors.password })} />
          </Field>
        </>
      ) : (
        <Field id="token" label="Access token" error={errors.token} help={TOKEN_HELP}>
          <input name="token" type="password" autoComplete="off" className={CONTROL_CLASS} {...fieldAria("token", { help: TOKEN_HELP, error: errors.token })} />
        </Field>
      )}
      {errors.form ? (
        <p role="alert" className="rounded-md bg-caution-soft px-3 py-2 text-sm text-caution">
          {errors.form}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded-md bg-accent px-4 py-2 text-sm font-medium text-accent-foreground disabled:opacity-60"
      >
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
