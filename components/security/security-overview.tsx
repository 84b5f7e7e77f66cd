"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ErrorNotice, PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/workflow-list/relative-time";
import { api } from "@/lib/client/api";
import type { SessionView, SignInMethod } from "@/lib/validations/access";
import type { IdentityProofs } from "@/lib/validations/sign-in";
import { SecurityLog, type SecurityLogProps } from "./security-log";

const METHODS: Record<SignInMethod, string> = { password: "password", token: "access token", link: "sign-in link", oidc: "single sign-on" };

/** How the person looking signs in, in the words of the page's description. */
function signInText(proofs: IdentityProofs): string {
  if (proofs.password && proofs.token) return "Sign in with your password or the access token.";
  if (proofs.password) return "Sign in with your sign-in name and password.";
  return "Sign in with the access token, or set a password on Settings → Account.";
}

/** The Security page: who is signed in where, and the log of sign-ins and privileged changes. */
export function SecurityOverview({ sessions, log, proofs, baseUrl }: { sessions: SessionView[]; log: SecurityLogProps | null; proofs: IdentityProofs; baseUrl: string }) {
  const [rows, setRows] = useState(sessions);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [signedOut, setSignedOut] = useState(false);
  const othersState = useRef<HTMLParagraphElement>(null);
  const others = rows.filter((row) => !row.current).length;
  // The button is gone once the others are signed out: focus goes on to the words that replace it, not the page's body.
  useEffect(() => {
    if (signedOut) othersState.current?.focus();
  }, [signedOut]);

  const endOthers = async () => {
    setBusy(true);
    setError(null);
    try {
      await api("/api/auth/sessions", { method: "DELETE" });
      setRows((list) => list.filter((row) => row.current));
      setSignedOut(true);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader
        title="Security"
        description={`Who is signed in to ${baseUrl}, and a log of sign-ins and of the changes that let commands run without asking. ${signInText(proofs)}`}
      />
      {error ? (
        <div className="mb-4">
          <ErrorNotice title="That did not work">{error}</ErrorNotice>
        </div>
      ) : null}
      <section aria-labelledby="sessions-heading" className="mb-10">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
          <h2 id="sessions-heading" className="text-lg font-semibold">
            Signed-in browsers
          </h2>
          {/* A disabled "Sign out 0 others" offers nothing: with no other browser signed in, say so instead. */}
          {others > 0 ? (
            <Button size="sm" onClick={() => void endOthers()} disabled={busy}>
              {busy ? "Signing out…" : `Sign out ${others} other${others === 1 ? "" : "s"}`}
            </Button>
          ) : (
            <p ref={othersState} role="status" tabIndex={-1} className="rounded-sm text-sm text-muted">
              {signedOut ? "Signed out every other browser." : "No other sessions"}
            </p>
          )}
        </div>
        <ul className="divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface">
          {rows.map((row) => (
            <li key={row.id} className="flex flex-wrap items-baseline gap-x-4 gap-y-1 px-4 py-3 text-sm">
              <span className="font-medium">{row.person}</span>
              <span className="text-muted">
                {METHODS[row.method]} · from {row.clientAddress || "an unknown address"} · signed in <RelativeTime value={row.createdAt} /> · last seen{" "}
                <RelativeTime value={row.lastSeenAt} />
              </span>
              {row.current ? <span className="rounded-full bg-accent-soft px-2 py-0.5 text-xs font-medium text-accent">this browser</span> : null}
            </li>
          ))}
        </ul>
      </section>
      {log === null ? (
        <section aria-labelledby="audit-heading">
          <h2 id="audit-heading" className="mb-3 text-lg font-semibold">
            Security log
          </h2>
          <p className="text-sm text-muted">Reading the security log needs the audit:read scope (owners and admins have it).</p>
        </section>
      ) : (
        <SecurityLog firstPage={log.firstPage} people={log.people} />
      )}
    </>
  );
}
