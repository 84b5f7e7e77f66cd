"use client";

import { useState } from "react";
import { Controller } from "react-hook-form";
import type { z } from "zod";
import { ApiFormDialog, useApiForm } from "@/components/ui/api-form";
import { CONTROL_CLASS, Field, FieldError, fieldAria } from "@/components/ui/field";
import { ShownOnceDialog } from "@/components/ui/shown-once-dialog";
import { api } from "@/lib/client/api";
import { CreateTokenBodySchema, TOKEN_EXPIRY_DAYS, type TokenView } from "@/lib/contracts/people";
import { SCOPE_DESCRIPTIONS, type Scope } from "@/lib/contracts/roles";

type Input = z.input<typeof CreateTokenBodySchema>;
const FIELDS = ["name", "scopes", "expiresInDays"] as const;
/** The select's value for a token that works until it is revoked. */
const NEVER = "never";

/**
 * Makes a personal access token: a name, the scopes it carries (only the
 * person's own are offered; the server refuses any other), and how long it
 * works. The token is shown once, here; the studio keeps only its digest.
 */
export function MakeTokenDialog({ scopes, onMade, onClose }: { scopes: readonly Scope[]; onMade: (token: TokenView) => void; onClose: () => void }) {
  const [made, setMade] = useState<{ token: string; name: string } | null>(null);
  const form = useApiForm<Input, z.output<typeof CreateTokenBodySchema>>(
    CreateTokenBodySchema,
    { name: "", scopes: [], expiresInDays: 90 },
    FIELDS,
    async (values) => {
      const answer = await api<{ token: string; record: TokenView }>("/api/me/tokens", { method: "POST", body: values });
      setMade({ token: answer.token, name: answer.record.name });
      onMade(answer.record);
    },
    "name",
  );
  const { errors } = form.formState;

  if (made !== null) {
    return (
      <ShownOnceDialog title="Token made" description={`“${made.name}”: send it as Authorization: Bearer <token>.`} label="Token" value={made.token} copyLabel="Copy token" onClose={onClose}>
        <p role="note" className="rounded-md border border-caution/40 bg-caution-soft px-3 py-2 text-sm text-caution">
          Copy it now: it is not shown again. The studio keeps only a digest of it; if it is lost, revoke it and make another.
        </p>
      </ShownOnceDialog>
    );
  }

  return (
    <ApiFormDialog
      form={form}
      onClose={onClose}
      title="Make a token"
      description="For a script, the CLI or an MCP client. It can do only what its scopes allow, and never more than your role."
      submitLabel="Make token"
      pendingLabel="Making…"
      errorTitle="No token made"
    >
      <Field id="token-name" label="Name" required error={errors.name?.message} help="What will use it, so you know which to revoke.">
        <input
          className={CONTROL_CLASS}
          autoComplete="off"
          aria-required
          {...form.register("name")}
          {...fieldAria("token-name", { help: true, error: errors.name?.message })}
        />
      </Field>
      <Controller
        control={form.control}
        name="scopes"
        render={({ field }) => (
          <fieldset className="min-w-0 space-y-2" aria-describedby={errors.scopes?.message ? "token-scopes-error" : undefined}>
            <legend className="mb-1 text-sm font-medium">
              Scopes <span className="text-caution" aria-hidden="true">*</span>
            </legend>
            {scopes.map((scope) => (
              <label key={scope} className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 shrink-0 accent-accent"
                  checked={field.value?.includes(scope) ?? false}
                  onBlur={field.onBlur}
                  onChange={(event) => field.onChange(event.target.checked ? [...(field.value ?? []), scope] : (field.value ?? []).filter((each) => each !== scope))}
                />
                <span className="min-w-0">
                  <span className="font-mono text-xs">{scope}</span>
                  <span className="block text-xs text-muted">{SCOPE_DESCRIPTIONS[scope]}</span>
                </span>
              </label>
            ))}
            <FieldError id="token-scopes" error={errors.scopes?.message} />
          </fieldset>
        )}
      />
      <Field id="token-expiry" label="Works for" error={errors.expiresInDays?.message}>
        <select
          className={CONTROL_CLASS}
          {...form.register("expiresInDays", { setValueAs: (value: unknown) => (value === NEVER || value === null ? null : Number(value)) })}
          {...fieldAria("token-expiry", { error: errors.expiresInDays?.message })}
        >
          {TOKEN_EXPIRY_DAYS.map((days) => (
            <option key={days ?? NEVER} value={days ?? NEVER}>
              {days === null ? "Until revoked" : `${days} days`}
            </option>
          ))}
        </select>
      </Field>
    </ApiFormDialog>
  );
}
