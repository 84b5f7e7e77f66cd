"use client";

import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { FormDialog } from "@/components/ui/dialog";
import { api } from "@/lib/client/api";
import type { WorkflowShare, WorkflowShareView } from "@/lib/contracts/people";
import { ROLE_TITLES, ROLES, SHARE_ROLES, type Role, type ShareRole } from "@/lib/contracts/roles";

interface Colleague {
  id: string;
  displayName: string;
}

/** A share as the dialog edits it: its subject as one select value (`person:<id>` or `role:<role>`) and the role it gives. */
interface Row {
  subject: string;
  role: ShareRole;
}

const ROLE_SUBJECTS = ROLES.filter((role) => role !== "owner" && role !== "admin");

function rowOf(share: WorkflowShareView): Row {
  return { subject: "personId" in share.subject ? `person:${share.subject.personId}` : `role:${share.subject.role}`, role: share.role };
}

function shareOf(row: Row): WorkflowShare {
  const [kind, value] = row.subject.split(/:(.*)/s) as [string, string];
  return { subject: kind === "person" ? { personId: value } : { role: value as Role }, role: row.role };
}

/**
 * Share: who else may see this workflow, and as what. A share never gives
 * more than the person's own role (an approver shared as editor still only
 * approves), and owners and admins see every workflow anyway.
 */
export function ShareDialog({ workflowId, workflowName, onClose }: { workflowId: string; workflowName: string; onClose: () => void }) {
  const [rows, setRows] = useState<Row[] | null>(null);
  const [colleagues, setColleagues] = useState<Colleague[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    let live = true;
    Promise.all([api<{ shares: WorkflowShareView[] }>(`/api/workflows/${workflowId}/shares`), api<{ people: Colleague[] }>("/api/people/directory")])
      .then(([shares, directory]) => {
        if (!live) return;
        setRows(shares.shares.map(rowOf));
        setColleagues(directory.people);
      })
      .catch((caught: unknown) => live && setError(caught instanceof Error ? caught.message : String(caught)));
    return () => {
      live = false;
    };
  }, [workflowId]);

  const subjects = [
    ...ROLE_SUBJECTS.map((role) => ({ value: `role:${role}`, label: `Everyone who is ${ROLE_TITLES[role]}` })),
    ...colleagues.map((person) => ({ value: `person:${person.id}`, label: person.displayName })),
  ];
  const unused = subjects.filter((subject) => !(rows ?? []).some((row) => row.subject === subject.value));
  const update = (index: number, change: Partial<Row>) => setRows((current) => (current ?? []).map((row, at) => (at === index ? { ...row, ...change } : row)));

  async function save(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      await api(`/api/workflows/${workflowId}/shares`, { method: "PUT", body: { shares: (rows ?? []).map(shareOf) } });
      onClose();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setPending(false);
    }
  }

  return (
    <FormDialog
      onSubmit={(event) => void save(event)}
      onClose={onClose}
      title={`Share “${workflowName}”`}
      description="Who else may see it, and what they may do on it: never more than their own role allows. Owners and admins see every workflow."
      wide
      pending={pending}
      submitLabel="Save sharing"
      pendingLabel="Saving…"
      submitDisabled={rows === null}
      error={error}
      errorTitle="Sharing not saved"
      instead={rows === null ? <p className="text-sm text-muted">{error ?? "Loading who it is shared with…"}</p> : undefined}
    >
      {(rows ?? []).length === 0 ? <p className="text-sm text-muted">Only you (and the studio&apos;s owners and admins) can see it.</p> : null}
      <ul className="space-y-2">
        {(rows ?? []).map((row, index) => {
          const label = subjects.find((subject) => subject.value === row.subject)?.label ?? row.subject;
          return (
            <li key={row.subject} className="flex flex-wrap items-center gap-2">
              <span className="min-w-0 flex-1 truncate text-sm font-medium">{label}</span>
              <select
                aria-label={`Role on this workflow for ${label}`}
                value={row.role}
                onChange={(event) => update(index, { role: event.target.value as ShareRole })}
                className="rounded-md border border-line-control bg-surface px-2 py-1 text-sm"
              >
                {SHARE_ROLES.map((role) => (
                  <option key={role} value={role}>
                    {ROLE_TITLES[role]}
                  </option>
                ))}
              </select>
              <Button size="sm" variant="ghost" onClick={() => setRows((current) => (current ?? []).filter((_, at) => at !== index))}>
                Remove<span className="sr-only"> {label}</span>
              </Button>
            </li>
          );
        })}
      </ul>
      {unused.length > 0 ? (
        <label className="flex flex-wrap items-center gap-2 text-sm">
          <span className="font-medium">Add</span>
          <select
            aria-label="Add a person or a role"
            value=""
            onChange={(event) => {
              if (event.target.value) setRows((current) => [...(current ?? []), { subject: event.target.value, role: "viewer" }]);
            }}
            className="rounded-md border border-line-control bg-surface px-2 py-1 text-sm"
          >
            <option value="">Choose a person or a role…</option>
            {unused.map((subject) => (
              <option key={subject.value} value={subject.value}>
                {subject.label}
              </option>
            ))}
          </select>
        </label>
      ) : null}
    </FormDialog>
  );
}
