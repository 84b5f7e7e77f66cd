"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { safeNextPath } from "@/lib/server/safe-next-path";

interface FieldErrors {
  name?: string;
  password?: string;
  form?: string;
}

/** Signs in with the studio password and the person's name (recorded on their decisions). */
export function LoginForm({ next }: { next: string }) {
  const router = useRouter();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get("name") ?? "").trim();
    const password = String(form.get("password") ?? "");
    const found: FieldErrors = {};
    if (!name) found.name = "Enter your name, so decisions say who made them.";
    if (!password) found.password = "Enter the password.";
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    try {
      const response = await fetch("/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name, password }),
      });
      if (response.ok) {
        router.replace(safeNextPath(next));
        router.refresh();
        return;
      }
      const body = (await response.json().catch(() => ({}))) as { error?: string };
      setErrors(response.status === 401 ? { password: body.error ?? "That password is not right." } : { form: body.error ?? "Could not sign in." });
    } catch {
      setErrors({ form: "The studio did not answer. Is it running?" });
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <div className="space-y-1.5">
        <label htmlFor="name" className="block text-sm font-medium">
          Your name
        </label>
        <input
          id="name"
          name="name"
          autoComplete="name"
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? "name-error" : undefined}
          className="w-full rounded-md border border-line-strong bg-surface px-3 py-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-accent"
        />
        {errors.name ? (
          <p id="name-error" className="text-sm text-caution">
            {errors.name}
          </p>
        ) : null}
      </div>
      <div className="space-y-1.5">
        <label htmlFor="password" className="block text-sm font-medium">
          Password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={errors.password ? "password-error" : undefined}
          className="w-full rounded-md border border-line-strong bg-surface px-3 py-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-accent"
        />
        {errors.password ? (
          <p id="password-error" className="text-sm text-caution">
            {errors.password}
          </p>
        ) : null}
      </div>
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
