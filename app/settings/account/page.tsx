import type { Metadata } from "next";
import { AccountSettings } from "@/components/account/account-settings";
import { findPerson } from "@/lib/persistence/people-store";
import { listPersonalTokens } from "@/lib/persistence/personal-token-store";
import { pagePrincipal } from "@/lib/server/access/page-access";
import { notificationChoices } from "@/lib/server/notification-settings";
import { startStudio } from "@/lib/server/studio";
import { redirect } from "next/navigation";

export const metadata: Metadata = { title: "Your account" };
export const dynamic = "force-dynamic";

/** Everyone's own page: their name, their password, their notifications and their personal access tokens. */
export default async function AccountPage() {
  const { database } = await startStudio();
  const principal = await pagePrincipal();
  const [person, tokens, notifications] = await Promise.all([findPerson(principal.personId, database), listPersonalTokens(principal.personId, database), notificationChoices(principal)]);
  if (!person) redirect("/login");
  const { createdBy: _createdBy, ...view } = person;
  return <AccountSettings person={view} scopes={[...principal.scopes]} initialTokens={tokens} notifications={notifications} />;
}
