"use client";

import { useState } from "react";
import type { z } from "zod";
import { ApiFormDialog, useApiForm } from "@/components/ui/api-form";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { ShownOnceDialog } from "@/components/ui/shown-once-dialog";
import { api } from "@/lib/client/api";
import { InviteBodySchema, type InvitationView } from "@/lib/contracts/people";
import { ROLE_TITLES, ROLES, type Role } from "@/lib/contracts/roles";

type Input = z.input<typeof InviteBodySchema>;
const FIELDS = ["role", "note", "expiresInHours"] as const;
const EXPIRIES = [
  { hours: 24, label: "1 day" },
  { hours: 72, label: "3 days" },
  { hours: 168, label: "7 days" },
  { hours: 720, label: "30 days" },
] as const;

/**
 * Invites someone: a role, a note of who it is for, how long the link works.
 * The link is shown once, here, to copy and send; the studio keeps only its
 * digest.
 */
export function InviteDialog({ myRole, onInvited, onClose }: { myRole: Role; onInvited: (invitation: InvitationView) => void; onClose: () => void }) {
  const [link, setLink] = useState<string | null>(null);
  const form = useApiForm<Input, z.output<typeof InviteBodySchema>>(InviteBodySchema, { role: "editor", note: "", expiresInHours: 72 }, FIELDS, async (values) => {
    const answer = await api<{ invitation: InvitationView; link: string }>("/api/people/invitations", { method: "POST", body: values });
    setLink(answer.link);
    onInvited(answer.invitation);
  });
  const { errors } = form.formState;
  // Only an owner makes an owner.
  const roles = ROLES.filter((role) => role !== "owner" || myRole === "owner");

  if (link !== null) {
    return (
      <ShownOnceDialog
        title="Invitation made"
        description="Send this link to the person. It works once, and is not shown again."
        label="Invitation link"
        value={link}
        copyLabel="Copy link"
        onClose={onClose}
      />
    );
  }

  return (
    <ApiFormDialog
      form={form}
      onClose={onClose}
      title="Invite someone"
      description="They choose their own sign-in name and password when they open the link."
      submitLabel="Make invitation link"
      pendingLabel="Making…"
      errorTitle="No invitation made"
    >
      <Field id="invite-role" label="Role" error={errors.role?.message} help="What they may do; a workflow's share can narrow it.">
        <select className={CONTROL_CLASS} {...form.register("role")} {...fieldAria("invite-role", { help: true, error: errors.role?.message })}>
          {roles.map((role) => (
            <option key={role} value={role}>
              {ROLE_TITLES[role]}
            </option>
          ))}
        </select>
      </Field>
      <Field id="invite-note" label="Who it is for" error={errors.note?.message} help="A note for this list, such as their name or e-mail address.">
        <input className={CONTROL_CLASS} {...form.register("note")} {...fieldAria("invite-note", { help: true, error: errors.note?.message })} />
      </Field>
      <Field id="invite-expiry" label="Link works for" error={errors.expiresInHours?.message}>
        <select className={CONTROL_CLASS} {...form.register("expiresInHours", { valueAsNumber: true })} {...fieldAria("invite-expiry", { error: errors.expiresInHours?.message })}>
          {EXPIRIES.map((expiry) => (
            <option key={expiry.hours} value={expiry.hours}>
              {expiry.label}
            </option>
          ))}
        </select>
      </Field>
    </ApiFormDialog>
  );
}
