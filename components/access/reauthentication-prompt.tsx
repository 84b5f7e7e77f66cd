"use client";

import { useEffect, useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { registerReauthenticationPrompt } from "@/lib/client/reauthentication";
import type { IdentityProofs } from "@/lib/validations/sign-in";

interface Pending {
  reason: string;
  resolve: (confirmed: boolean) => void;
}

/**
 * "Confirm it is you": shown when a privileged change (a stdio MCP server's
 * command, bypass mode, an open shell policy…) comes a while after signing
 * in. The person's password (or, for the first owner, the access token) opens
 * such changes for a few minutes; the change that asked is then sent again by
 * `api()`. It asks for what the server accepts from this person: an invited
 * person has no access token to give.
 */
export function ReauthenticationPrompt({ proofs }: { proofs: IdentityProofs }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const pendingRef = useRef<Pending | null>(null);

  useEffect(
    () =>
      registerReauthenticationPrompt(
        (reason) =>
          new Promise<boolean>((resolve) => {
            pendingRef.current?.resolve(false);
            const next = { reason, resolve };
            pendingRef.current = next;
            setError(undefined);
            setPending(next);
          }),
      ),
    [],
  );

  const finish = (confirmed: boolean) => {
    pendingRef.current?.resolve(confirmed);
    pendingRef.current = null;
    setPending(null);
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const secret = String(new FormData(event.currentTarget).get("credential") ?? "");
    if (!secret) {
      setError(`Enter ${proofs.password && proofs.token ? "your password or the access token" : proofs.token ? "the access token" : "your password"}.`);
      return;
    }
    setBusy(true);
    try {
      // The password and the token are told apart by trying the password first when both would do.
      const attempts = [...(proofs.password ? [{ password: secret }] : []), ...(proofs.token ? [{ token: secret }] : [])];
      let last = "That is not right.";
      for (const body of attempts) {
        const response = await fetch("/api/auth/confirm", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
        if (response.ok) {
          finish(true);
          return;
        }
        const answer = (await response.json().catch(() => ({}))) as { error?: string };
        last = answer.error ?? last;
        if (response.status !== 401) break;
      }
      setError(last);
    } catch {
      setError("The studio did not answer. Is it running?");
    } finally {
      setBusy(false);
    }
  }

  if (!pending) return null;
  const id = "reauthenticate-credential";
  return (
    <Dialog
      open
      onClose={() => finish(false)}
      title="Confirm it is you"
      description={pending.reason}
      footer={
        <>
          <Button variant="ghost" onClick={() => finish(false)} disabled={busy}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="reauthenticate-form" disabled={busy}>
            {busy ? "Confirming…" : "Confirm"}
          </Button>
        </>
      }
    >
      <form id="reauthenticate-form" onSubmit={submit} noValidate>
        <Field
          id={id}
          label={proofs.password && proofs.token ? "Password or access token" : proofs.token ? "Access token" : "Password"}
          help={proofs.token ? "The access token is in the file access-token in the studio's data folder, and in the link it printed when it started." : undefined}
          error={error}
        >
          <input name="credential" type="password" autoComplete="current-password" autoFocus className={CONTROL_CLASS} {...fieldAria(id, { help: proofs.token, error })} />
        </Field>
      </form>
    </Dialog>
  );
}
