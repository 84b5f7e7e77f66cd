import { NotFoundError } from "@/lib/persistence";
import { recordAudit } from "@/lib/persistence/audit-store";
import { revokeInvitation } from "@/lib/persistence/invitation-store";
import { clientAddress } from "@/lib/server/access/principal";
import { json, pathId, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

/** Withdraws an invitation nobody has used yet. */
export const DELETE = route("DELETE /api/people/invitations/[id]", async (request, { params }: { params: Promise<{ id: string }> }, principal) => {
  const { database } = await startStudio();
  const id = pathId((await params).id, "invitation");
  if (!(await revokeInvitation(id, database))) throw new NotFoundError("invitation", id);
  await recordAudit({ actor: principal.person, actorId: principal.personId, action: "invitation-revoked", target: id, clientAddress: clientAddress(request) }, database);
  return json({ revoked: true });
});
