import { NotFoundError } from "@/lib/persistence";
import { recordAudit } from "@/lib/persistence/audit-store";
import { revokePersonalToken } from "@/lib/persistence/personal-token-store";
import { clientAddress } from "@/lib/server/access/principal";
import { json, pathId, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

/** Revokes one of the caller's tokens: it stops working at once. */
export const DELETE = route("DELETE /api/me/tokens/[id]", async (request, { params }: { params: Promise<{ id: string }> }, principal) => {
  const { database } = await startStudio();
  const id = pathId((await params).id, "token");
  if (!(await revokePersonalToken(principal.personId, id, database))) throw new NotFoundError("token", id);
  await recordAudit({ actor: principal.person, actorId: principal.personId, action: "token-revoked", target: id, clientAddress: clientAddress(request) }, database);
  return json({ revoked: true });
});
