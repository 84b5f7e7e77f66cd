"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { CardActions, CardCell, columnsOf, labelledColumns, RowCard, RowCardTable, type RowCardColumn } from "@/components/ui/row-cards";
import { RelativeTime } from "@/components/workflow-list/relative-time";
import { StatusMessage, type StatusMessageValue } from "@/components/workflow-list/status-message";
import { api, ApiError } from "@/lib/client/api";
import type { InvitationView, PersonView } from "@/lib/contracts/people";
import { ROLE_TITLES, ROLES, type Role } from "@/lib/contracts/roles";
import { InviteDialog } from "./invite-dialog";

const PEOPLE_COLUMNS: readonly RowCardColumn[] = labelledColumns(
  [["Name"], ["Sign-in name", "w-48"], ["Role", "w-40"], ["Last sign-in", "w-36"]],
  "w-36",
);

const INVITATION_COLUMNS: readonly RowCardColumn[] = labelledColumns(
  [["For"], ["Role", "w-32"], ["Status", "w-48"]],
  "w-32",
);

/**
 * Settings → People: everyone who can sign in, their roles, and the
 * invitations made. Roles change in place (the server refuses what would
 * leave no owner, and says so here); deactivating someone signs them out
 * everywhere at once.
 */
export function PeopleSettings({ initialPeople, initialInvitations, me }: { initialPeople: PersonView[]; initialInvitations: InvitationView[]; me: { id: string; role: Role } }) {
  const [people, setPeople] = useState(initialPeople);
  const [invitations, setInvitations] = useState(initialInvitations);
  const [inviting, setInviting] = useState(false);
  const [message, setMessage] = useState<StatusMessageValue | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  /** Only an owner changes an owner, or makes one. */
  const mayChange = (person: PersonView) => person.role !== "owner" || me.role === "owner";
  const rolesFor = ROLES.filter((role) => role !== "owner" || me.role === "owner");

  async function change(person: PersonView, body: { role?: Role; active?: boolean }, done: string) {
    setBusy(person.id);
    try {
      const { person: changed } = await api<{ person: PersonView }>(`/api/people/${person.id}`, { method: "PATCH", body });
      setPeople((current) => current.map((each) => (each.id === changed.id ? { ...each, ...changed } : each)));
      setMessage({ tone: "safe", text: `${done}` });
    } catch (error) {
      setMessage({ tone: "caution", text: error instanceof ApiError || error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(null);
    }
  }

  async function withdraw(invitation: InvitationView) {
    try {
      await api(`/api/people/invitations/${invitation.id}`, { method: "DELETE" });
      setInvitations((current) => current.map((each) => (each.id === invitation.id ? { ...each, status: "revoked" } : each)));
      setMessage({ tone: "safe", text: `Invitation${invitation.note ? ` for ${invitation.note}` : ""} withdrawn.` });
    } catch (error) {
      setMessage({ tone: "caution", text: error instanceof Error ? error.message : String(error) });
    }
  }

  return (
    <div className="space-y-10">
      <div>
        <PageHeader
          title="People"
          description="Who can sign in, and what their role lets them do. A workflow is its maker's; share it from the editor to let others see, run or edit it."
          actions={
            <Button variant="primary" onClick={() => setInviting(true)}>
              Invite someone
            </Button>
          }
        />
        <StatusMessage message={message} onDismiss={() => setMessage(null)} />
        <RowCardTable caption="People who can sign in" tableClassName="sm:min-w-[48rem] sm:table-fixed" {...columnsOf(PEOPLE_COLUMNS)}>
          {people.map((person) => (
            <RowCard key={person.id} className={person.active ? "" : "opacity-70"}>
              <CardCell part="title" label="Name" rowHeader className="py-3 pl-5 pr-3 font-medium">
                {person.displayName}
                {person.id === me.id ? <span className="ml-2 text-xs font-normal text-muted">(you)</span> : null}
                {person.active ? null : <span className="ml-2 rounded-full bg-surface-sunken px-2 py-0.5 text-xs font-normal text-muted">deactivated</span>}
              </CardCell>
              <CardCell part="detail" label="Sign-in name" className="px-3 py-3 font-mono text-xs text-muted wrap-anywhere">
                {person.login}
              </CardCell>
              <CardCell part="detail" label="Role" className="px-3 py-3">
                <select
                  aria-label={`Role of ${person.displayName}`}
                  value={person.role}
                  disabled={!mayChange(person) || busy === person.id}
                  title={mayChange(person) ? undefined : "Only an owner changes an owner."}
                  onChange={(event) => void change(person, { role: event.target.value as Role }, `${person.displayName} is now ${ROLE_TITLES[event.target.value as Role]}.`)}
                  className="rounded-md border border-line-control bg-surface px-2 py-1 text-sm disabled:opacity-60"
                >
                  {(mayChange(person) ? rolesFor : ROLES).map((role) => (
                    <option key={role} value={role}>
                      {ROLE_TITLES[role]}
                    </option>
                  ))}
                </select>
              </CardCell>
              <CardCell part="detail" label="Last sign-in" className="px-3 py-3 text-sm text-muted">
                {person.lastSignInAt ? <RelativeTime value={person.lastSignInAt} /> : "never"}
              </CardCell>
              <CardCell part="actions" label="Actions" className="py-3 pl-3 pr-5">
                <CardActions>
                  <Button
                    size="sm"
                    variant={person.active ? "secondary" : "ghost"}
                    disabled={!mayChange(person) || busy === person.id}
                    onClick={() =>
                      void change(person, { active: !person.active }, person.active ? `${person.displayName} is deactivated and signed out everywhere.` : `${person.displayName} can sign in again.`)
                    }
                  >
                    {person.active ? "Deactivate" : "Reactivate"}
                  </Button>
                </CardActions>
              </CardCell>
            </RowCard>
          ))}
        </RowCardTable>
      </div>

      <section aria-labelledby="invitations-heading">
        <h2 id="invitations-heading" className="mb-3 text-lg font-semibold">
          Invitations
        </h2>
        {invitations.length === 0 ? (
          <p className="text-sm text-muted">None yet. Invite someone to give them a link that lets them join once.</p>
        ) : (
          <RowCardTable caption="Invitations made" tableClassName="sm:min-w-[40rem] sm:table-fixed" {...columnsOf(INVITATION_COLUMNS)}>
            {invitations.map((invitation) => (
              <RowCard key={invitation.id}>
                <CardCell part="title" label="For" rowHeader className="py-3 pl-5 pr-3">
                  {invitation.note || <span className="text-muted">(no note)</span>}
                  <span className="block text-xs text-muted">by {invitation.invitedBy}</span>
                </CardCell>
                <CardCell part="detail" label="Role" className="px-3 py-3 text-sm">
                  {ROLE_TITLES[invitation.role]}
                </CardCell>
                <CardCell part="detail" label="Status" className="px-3 py-3 text-sm text-muted">
                  {invitation.status === "pending" ? (
                    <>
                      works until <RelativeTime value={invitation.expiresAt} />
                    </>
                  ) : (
                    invitation.status
                  )}
                </CardCell>
                <CardCell part="actions" label="Actions" className="py-3 pl-3 pr-5">
                  <CardActions>
                    {invitation.status === "pending" ? (
                      <Button size="sm" variant="ghost" onClick={() => void withdraw(invitation)}>
                        Withdraw
                      </Button>
                    ) : null}
                  </CardActions>
                </CardCell>
              </RowCard>
            ))}
          </RowCardTable>
        )}
      </section>

      {inviting ? (
        <InviteDialog
          myRole={me.role}
          onClose={() => setInviting(false)}
          onInvited={(invitation) => setInvitations((current) => [invitation, ...current])}
        />
      ) : null}
    </div>
  );
}
