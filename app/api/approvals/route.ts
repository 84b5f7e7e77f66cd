import { listApprovalsFor } from "@/lib/server/access/run-view";
import { forViewer } from "@/lib/server/approval-deciders";
import { json, readQuery, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";
import { ListApprovalsQuerySchema } from "@/lib/validations/run";

export const dynamic = "force-dynamic";

/**
 * What each approval is about: the run, node, tool, operation, masked arguments and a preview of what would happen,
 * and whether the caller may decide it (`viewer`); `?for=me` those they may, `?for=team` those others decide.
 */
export const GET = route("GET /api/approvals", async (request, _context, principal) => {
  const { database } = await startStudio();
  const { for: whose, ...query } = readQuery(request, ListApprovalsQuerySchema);
  const approvals = await forViewer(await listApprovalsFor(principal, query, database), principal, database);
  return json({ approvals: whose === undefined ? approvals : approvals.filter((approval) => approval.viewer.mayDecide === (whose === "me")) });
});
