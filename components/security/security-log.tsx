"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ErrorNotice } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/workflow-list/relative-time";
import { api } from "@/lib/client/api";
import { AuditActionSchema, type AuditEntry, type AuditPage } from "@/lib/validations/access";

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
  "model-prices-changed": "changed the model prices",
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
  "audit-exported": "exported the security log",
  "approval-decided": "decided an approval",
  "approval-escalated": "escalated an approval nobody decided in time",
  "approval-expired": "ended an approval nobody decided in time",
  "approval-notified": "told someone (by e-mail or webhook) of an approval that waits for them",
  "approval-notification-failed": "could not tell someone (by e-mail or webhook) of an approval that waits for them",
  "notification-choices-changed": "changed how they are told of approvals",
  "notification-webhook-changed": "changed a workflow's approval webhook",
  "grant-revoked": "revoked an “Always allow”",
  "approval-viewed": "opened an approval's card",
};


/** What the entry says was done, naming the workflow it was done to when the log recorded it. */
function actionText(entry: AuditEntry): string {
  const workflow = (entry.detail as Record<string, unknown> | null)?.workflow;
  if (typeof workflow === "string" && entry.action === "workflow-published") return `published the workflow “${workflow}” (its triggers start runs)`;
  if (typeof workflow === "string" && entry.action === "workflow-unpublished") return `unpublished the workflow “${workflow}” (its triggers stopped)`;
  if (typeof workflow === "string" && entry.action === "run-deleted") return `deleted a run of “${workflow}”`;
  if (typeof workflow === "string" && entry.action === "approval-decided") return `decided an approval in “${workflow}”`;
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
  if (entry.action === "approval-decided") return `${String(detail.decision ?? "")} (${String(detail.tool ?? detail.kind ?? "")}, run ${String(detail.runId ?? "")})`;
  if (entry.action === "model-prices-changed" && Array.isArray(detail.changes)) return detail.changes.map(String).join("; ");
  if (entry.action === "retention-changed") return `${String(detail.scope ?? "")}: ${JSON.stringify(detail.policy ?? null)}`;
  return "";
}


export interface SecurityLogProps {
  /** The newest page, unfiltered, as the server read it. */
  firstPage: AuditPage;
  /** Who may be chosen in the person filter. */
  people: { id: string; displayName: string }[];
}

interface Filters {
  action: string;
  actorId: string;
  from: string;
  to: string;
}

const NO_FILTERS: Filters = { action: "", actorId: "", from: "", to: "" };
const FIELD_CLASS = "rounded-md border border-line-control bg-surface px-2 py-1.5 text-sm";

/** The filters as query parameters (empty ones left out). */
function filterQuery(filters: Filters): URLSearchParams {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
  return query;
}

/**
 * The security log: newest first, filtered by what was done, who did it and
 * when, a page at a time (Show older), and exported whole as CSV or JSON Lines
 * with the same filters.
 */
export function SecurityLog({ firstPage, people }: SecurityLogProps) {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [entries, setEntries] = useState(firstPage.entries);
  const [nextCursor, setNextCursor] = useState(firstPage.nextCursor);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const filtered = useRef(false);

  const read = useCallback(async (query: URLSearchParams, append: boolean) => {
    setLoading(true);
    setError(null);
    try {
      const page = await api<AuditPage>(`/api/audit?${query}`);
      setEntries((current) => (append ? [...current, ...page.entries] : page.entries));
      setNextCursor(page.nextCursor);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setLoading(false);
    }
  }, []);

  // A changed filter reads the first page again; the unfiltered first page came with the page.
  useEffect(() => {
    if (!filtered.current) return;
    void read(filterQuery(filters), false);
  }, [filters, read]);

  const change = (key: keyof Filters, value: string) => {
    filtered.current = true;
    setFilters((current) => ({ ...current, [key]: value }));
  };
  const clear = () => {
    filtered.current = true;
    setFilters(NO_FILTERS);
  };
  const isFiltered = Object.values(filters).some(Boolean);
  const showOlder = () => {
    if (nextCursor === null) return;
    const query = filterQuery(filters);
    query.set("cursor", nextCursor);
    void read(query, true);
  };
  const exportHref = (format: "csv" | "jsonl") => {
    const query = filterQuery(filters);
    query.set("format", format);
    return `/api/audit/export?${query}`;
  };

  return (
    <section aria-labelledby="audit-heading">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id="audit-heading" className="text-lg font-semibold">
          Security log
        </h2>
        <div className="flex flex-wrap gap-2 text-sm">
          <a href={exportHref("csv")} download className="rounded-md border border-line-strong bg-surface px-3 py-1.5 font-medium hover:bg-surface-sunken">
            Export CSV
          </a>
          <a href={exportHref("jsonl")} download className="rounded-md border border-line-strong bg-surface px-3 py-1.5 font-medium hover:bg-surface-sunken">
            Export JSON Lines
          </a>
        </div>
      </div>
      {/* A fieldset is as wide as its widest content by default, and What's longest choice is wider than a phone:
          min-w-0 lets it, the label and the select narrow to the screen (449 px in 390 scrolled the page sideways). */}
      <fieldset className="mb-3 flex min-w-0 flex-wrap items-end gap-3 text-sm">
        <legend className="sr-only">Filter the security log</legend>
        <label className="flex min-w-0 max-w-full flex-col gap-1">
          <span className="text-xs font-medium text-muted">What</span>
          <select value={filters.action} onChange={(event) => change("action", event.target.value)} className={`${FIELD_CLASS} max-w-full`}>
            <option value="">Everything</option>
            {AuditActionSchema.options.map((action) => (
              <option key={action} value={action}>
                {ACTIONS[action]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs font-medium text-muted">Who</span>
          <select value={filters.actorId} onChange={(event) => change("actorId", event.target.value)} className={FIELD_CLASS}>
            <option value="">Anyone</option>
            {people.map((person) => (
              <option key={person.id} value={person.id}>
                {person.displayName}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs font-medium text-muted">From</span>
          <input type="date" value={filters.from} onChange={(event) => change("from", event.target.value)} className={FIELD_CLASS} />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs font-medium text-muted">To</span>
          <input type="date" value={filters.to} onChange={(event) => change("to", event.target.value)} className={FIELD_CLASS} />
        </label>
        {isFiltered ? (
          <Button size="sm" variant="ghost" onClick={clear}>
            Clear filters
          </Button>
        ) : null}
      </fieldset>
      {error ? (
        <div className="mb-3">
          <ErrorNotice title="The log could not be read">{error}</ErrorNotice>
        </div>
      ) : null}
      <p role="status" className="sr-only">
        {loading ? "Reading the log…" : `${entries.length} ${entries.length === 1 ? "entry" : "entries"} shown`}
      </p>
      {entries.length === 0 ? (
        <p className="text-sm text-muted">{loading ? "Reading the log…" : !isFiltered ? "Nothing yet." : "Nothing matches these filters."}</p>
      ) : (
        <ol className="divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface" aria-busy={loading}>
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
      {nextCursor !== null ? (
        <div className="mt-3 flex justify-center">
          <Button size="sm" onClick={showOlder} disabled={loading}>
            {loading ? "Reading…" : "Show older"}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
