import { ChangePersonBodySchema } from "@/lib/contracts/people";
import { recordAudit } from "@/lib/persistence/audit-store";
import { clientAddress } from "@/lib/server/access/principal";
import { json, pathId, readBody, route } from "@/lib/server/http";
import { changePerson } from "@/lib/server/people";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

/** Changes a person's role, or deactivates (every session and token ends at once) or reactivates them. */
export const PATCH = route("PATCH /api/people/[id]", async (request, { params }: { params: Promise<{ id: string }> }, principal) => {
  const { database } = await startStudio();
  const id = pathId((await params).id, "person");
  const body = await readBody(request, ChangePersonBodySchema);
  const person = await changePerson(principal, id, body, database);
  await recordAudit({ actor: principal.person, actorId: principal.personId, action: "person-changed", target: id, detail: { person: person.displayName, ...body }, clientAddress: clientAddress(request) }, database);
  return json({ person });
});
