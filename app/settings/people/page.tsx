import type { Metadata } from "next";
import { PeopleSettings } from "@/components/people/people-settings";
import { NoAccess } from "@/components/ui/no-access";
import { listInvitations } from "@/lib/persistence/invitation-store";
import { listPeople } from "@/lib/persistence/people-store";
import { pagePrincipal } from "@/lib/server/access/page-access";
import { startStudio } from "@/lib/server/studio";

export const metadata: Metadata = { title: "People" };
export const dynamic = "force-dynamic";

export default async function PeoplePage() {
  const { database } = await startStudio();
  const principal = await pagePrincipal();
  if (!principal.scopes.has("people:manage")) return <NoAccess title="People" scope="people:manage" role={principal.role} />;
  const [people, invitations] = await Promise.all([listPeople(database), listInvitations(database)]);
  return (
    <PeopleSettings
      initialPeople={people.map(({ createdBy: _createdBy, ...person }) => person)}
      initialInvitations={invitations}
      me={{ id: principal.personId, role: principal.role }}
    />
  );
}
