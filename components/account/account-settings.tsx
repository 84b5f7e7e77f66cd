"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { PageHeader } from "@/components/ui/page-header";
import type { NotificationChoicesView } from "@/lib/contracts/notifications";
import type { PersonView, TokenView } from "@/lib/contracts/people";
import { ROLE_TITLES, type Scope } from "@/lib/contracts/roles";
import { NameForm } from "./name-form";
import { NotificationChoices } from "./notification-choices";
import { PasswordForm } from "./password-form";
import { TokenList } from "./token-list";

/**
 * Settings → Account: the signed-in person's own name, password, how they are
 * told of approvals that wait for them, and personal access tokens. The role is shown, not chosen: an owner or admin changes it
 * on the People page.
 */
export function AccountSettings({
  person: initialPerson,
  scopes,
  initialTokens,
  notifications,
}: {
  person: PersonView;
  scopes: Scope[];
  initialTokens: TokenView[];
  notifications: NotificationChoicesView;
}) {
  const router = useRouter();
  const [person, setPerson] = useState(initialPerson);

  return (
    <>
      <PageHeader title="Your account" description="Your name, your password, how you hear of approvals and the tokens your scripts sign in with." />
      <div className="space-y-10">
        <section aria-labelledby="profile-heading" className="max-w-2xl">
          <h2 id="profile-heading" className="mb-3 text-lg font-semibold">
            Profile
          </h2>
          <dl className="mb-5 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-muted">Sign-in name</dt>
            <dd className="min-w-0 font-mono text-xs leading-5 wrap-anywhere">{person.login}</dd>
            <dt className="text-muted">Role</dt>
            <dd>
              {ROLE_TITLES[person.role]} <span className="text-muted">(an owner or admin changes it)</span>
            </dd>
          </dl>
          <NameForm
            displayName={person.displayName}
            onSaved={(changed) => {
              setPerson(changed);
              // The header names the person: drawn by the server, so drawn again.
              router.refresh();
            }}
          />
        </section>
        <section aria-labelledby="password-heading">
          <h2 id="password-heading" className="mb-3 text-lg font-semibold">
            Password
          </h2>
          <PasswordForm login={person.login} hasPassword={person.hasPassword} onChanged={() => setPerson((current) => ({ ...current, hasPassword: true }))} />
        </section>
        <NotificationChoices initial={notifications} />
        <TokenList initialTokens={initialTokens} scopes={scopes} />
      </div>
    </>
  );
}
