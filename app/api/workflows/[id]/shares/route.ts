import { PutSharesBodySchema } from "@/lib/contracts/people";
import { NotFoundError } from "@/lib/persistence";
import { recordAudit } from "@/lib/persistence/audit-store";
import { listShares, replaceShares } from "@/lib/persistence/share-store";
import { clientAddress } from "@/lib/server/access/principal";
import { mayShare } from "@/lib/server/access/workflow-access";
import { HttpError, json, pathId, readBody, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** Who the workflow is shared with, and as what. */
export const GET = route("GET /api/workflows/[id]/shares", async (_request, { params }: Context) => {
  const { database } = await startStudio();
  return json({ shares: await listShares(pathId((await params).id, "workflow"), database) });
});

/** Replaces who the workflow is shared with; its owner's (or an owner's or admin's) to change. */
export const PUT = route("PUT /api/workflows/[id]/shares", async (request, { params }: Context, principal) => {
  const { database } = await startStudio();
  const id = pathId((await params).id, "workflow");
  const workflow = await database.workflow.findUnique({ where: { id }, select: { name: true } });
  if (!workflow) throw new NotFoundError("workflow", id);
  if (!(await mayShare(principal, id, database))) throw new HttpError(403, "Only the workflow's owner, or an owner or admin of the studio, may change who it is shared with.");
  const body = await readBody(request, PutSharesBodySchema);
  await replaceShares(id, body.shares, principal.person, database);
  await recordAudit({ actor: principal.person, actorId: principal.personId, action: "workflow-shared", target: id, detail: { workflow: workflow.name, shares: body.shares }, clientAddress: clientAddress(request) }, database);
  return json({ shares: await listShares(id, database) });
});
