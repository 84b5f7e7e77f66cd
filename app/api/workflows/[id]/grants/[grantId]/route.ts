import { NotFoundError } from "@/lib/persistence";
import { recordAudit } from "@/lib/persistence/audit-store";
import { revokeGrant } from "@/lib/persistence/grant-store";
import { clientAddress } from "@/lib/server/access/principal";
import { json, pathId, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; grantId: string }> };

/**
 * Revokes an "Always allow": the folder's writes ask again, from each run's
 * next start or resume (a step already running keeps what it was allowed).
 * Whoever may decide the workflow's approvals may take one back.
 */
export const DELETE = route("DELETE /api/workflows/[id]/grants/[grantId]", async (request, { params }: Context, principal) => {
  const { database } = await startStudio();
  const given = await params;
  const workflowId = pathId(given.id, "workflow");
  const grantId = pathId(given.grantId, "grant");
  const revoked = await revokeGrant(workflowId, grantId, database);
  if (!revoked) throw new NotFoundError("grant", grantId);
  await recordAudit(
    {
      actor: principal.person,
      actorId: principal.personId,
      action: "grant-revoked",
      target: workflowId,
      detail: { grant: grantId, root: revoked.root, pattern: revoked.pattern, givenBy: revoked.createdBy },
      clientAddress: clientAddress(request),
    },
    database,
  );
  return json({ revoked });
});
