import { getApprovalDetail } from "@/lib/persistence/run-queries";
import { approvalsAsSeenBy } from "@/lib/server/access/run-view";
import { forViewer } from "@/lib/server/approval-deciders";
import { recordApprovalView } from "@/lib/server/approval-views";
import { decideApproval, editFormOf } from "@/lib/server/approvals";
import { json, pathId, readBody, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";
import { DecisionBodySchema } from "@/lib/validations/run";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** One approval's card, with its edit form; the security log records that this person opened it. */
export const GET = route("GET /api/approvals/[id]", async (request, { params }: Context, principal) => {
  const { database, pool, runs } = await startStudio();
  const found = await getApprovalDetail(pathId((await params).id, "approval"), database);
  const [approval] = await forViewer(await approvalsAsSeenBy(principal, [found], database), principal, database);
  if (approval) await recordApprovalView(approval, principal, request, database, runs);
  // What "Edit and approve" offers: the call's input form, for the card to generate.
  return json({ approval, editForm: approval ? editFormOf(approval, pool()) : null });
});

/** A decision: once / always / deny for writes, approve / deny for the rest, answer for questions; an approval may carry an edit (`arguments`, or a `plan`). */
export const POST = route("POST /api/approvals/[id]", async (request, { params }: Context, principal) => {
  const id = pathId((await params).id, "approval");
  const body = await readBody(request, DecisionBodySchema);
  const { database } = await startStudio();
  const decided = await decideApproval(id, body, principal, request);
  const [approval] = await forViewer(await approvalsAsSeenBy(principal, [decided], database), principal, database);
  return json({ approval });
});
