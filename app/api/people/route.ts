import { listInvitations } from "@/lib/persistence/invitation-store";
import { listPeople } from "@/lib/persistence/people-store";
import { json, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

/** Everyone who can sign in (or could, deactivated), and the invitations made. */
export const GET = route("GET /api/people", async () => {
  const { database } = await startStudio();
  const [people, invitations] = await Promise.all([listPeople(database), listInvitations(database)]);
  return json({ people: people.map(({ createdBy: _createdBy, ...person }) => person), invitations });
});
