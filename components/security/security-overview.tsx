"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ErrorNotice, PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/workflow-list/relative-time";
import { api } from "@/lib/client/api";
import type { AuditEntry, SessionView, SignInMethod } from "@/lib/validations/access";
import type { IdentityProofs } from "@/lib/validations/sign-in";

const ACTIONS: Record<AuditEntry["action"], string> = {
  "sign-in": "signed in",
  "sign-in-failed": "failed to sign in",
  "sign-out": "signed out",
  "sessions-ended": "signed out every other browser",
  "identity-confirmed": "confirmed who they are",
  "mcp-command-confirmed": "confirmed an MCP server's command",
  "workflow-privileged-settings": "let a workflow act without asking",
  "workflow-imported-without-privileges": "imported a workflow (unsafe settings dropped)",
  "workflow-published": "published a workflow (its triggers start runs)",
  "workflow-unpublished": "unpublished a workflow (its triggers stopped)",
  "run-deleted": "deleted a run",
  "retention-changed": "changed how long runs are kept",
  "access-refused": "was refused",
  "profile-changed": "changed their name",
  "password-changed": "changed their password",
  "token-created": "made a personal access token",
  "token-revoked": "revoked a personal access token",
  "person-invited": "invited someone",
  "invitation-revoked": "withdrew an invitation",
  "invitation-accepted": "joined with an invitation",
  "person-changed": "changed someone's role or access",
  "workflow-shared": "changed who a workflow is shared with",
};

const METHODS: Record<SignInMethod, string> = { password: "password", token: "access token", link: "sign-in link" };

/** What the entry says was done, naming the workflow it was done to when the log recorded it. */
function actionText(entry: AuditEntry): string {
  const workflow = (entry.detail as Record<string, unknown> | null)?.workflow;
  if (typeof workflow === "string" && entry.action === "workflow-published") return `published the workflow “${workflow}” (its triggers start runs)`;
  if (typeof workflow === "string" && entry.action === "workflow-unpublished") return `unpublished the workflow “${workflow}” (its triggers stopped)`;
  if (typeof workflow === "string" && entry.action === "run-deleted") return `deleted a run of “${workflow}”`;
  return ACTIONS[entry.action] ?? entry.action;
}

/** What the audit entry adds in words: the command, the settings, what was dropped. */
function detailText(entry: AuditEntry): string {
  const detail = entry.detail as Record<string, unknown>;
  if (entry.action === "mcp-command-confirmed") return `${String(detail.server)}: ${String(detail.command)} ${JSON.stringify(detail.args ?? [])}`;
  const settings = (detail.settings ?? detail.dropped) as { description?: string }[] | undefined;
  if (Array.isArray(settings)) return `${String(detail.workflow ?? "")}: ${settings.map((setting) => setting.description).join("; ")}`;
  if (typeof detail.with === "string") return `with the ${detail.with}`;
  if (entry.action === "run-deleted") return `run ${entry.target ?? ""}${Number(detail.runsDeleted) > 1 ? ` and the ${Number(detail.runsDeleted) - 1} run(s) it called` : ""}`;
  if (entry.action === "access-refused") return `${String(detail.request ?? "")}: needs ${String(detail.scope ?? "")}`;
  if (entry.action === "retention-changed") return `${String(detail.scope ?? "")}: ${JSON.stringify(detail.policy ?? null)}`;
  return "";
}

/** How the person looking signs in, in the words of the page's description. */
function signInText(proofs: IdentityProofs): string {
  if (proofs.password && proofs.token) return "Sign in with your password or the access token.";
  if (proofs.password) return "Sign in with your sign-in name and password.";
  return "Sign in with the access token, or set a password on Settings → Account.";
}

/** The Security page: who is signed in where, and the log of sign-ins and privileged changes. */
export function SecurityOverview({ sessions, entries, proofs, baseUrl }: { sessions: SessionView[]; entries: AuditEntry[] | null; proofs: IdentityProofs; baseUrl: string }) {
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
      <section aria-labelledby="audit-heading">
        <h2 id="audit-heading" className="mb-3 text-lg font-semibold">
          Security log
        </h2>
        {entries === null ? (
          <p className="text-sm text-muted">Reading the security log needs the audit:read scope (owners and admins have it).</p>
        ) : entries.length === 0 ? (
          <p className="text-sm text-muted">Nothing yet.</p>
        ) : (
          <ol className="divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface">
            {entries.map((entry) => (
              <li key={entry.id} className="grid gap-1 px-4 py-3 text-sm sm:grid-cols-[10rem_1fr]">
                <span className="text-muted">
                  <RelativeTime value={entry.at} />
                </span>
                <span className="min-w-0 break-words">
                  <span className="font-medium">{entry.actor}</span> {actionText(entry)}
                  {entry.clientAddress ? <span className="text-muted"> from {entry.clientAddress}</span> : null}
                  {detailText(entry) ? <span className="mt-0.5 block break-all font-mono text-xs text-muted">{detailText(entry)}</span> : null}
                </span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </>
  );
}
