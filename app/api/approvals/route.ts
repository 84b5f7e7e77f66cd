import { listApprovalsFor } from "@/lib/server/access/run-view";
import { json, readQuery, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";
import { ListApprovalsQuerySchema } from "@/lib/validations/run";

export const dynamic = "force-dynamic";

/** What each approval is about: the run, node, tool, operation, masked arguments and a preview of what would happen. */
export const GET = route("GET /api/approvals", async (request, _context, principal) => {
  const { database } = await startStudio();
  return json({ approvals: await listApprovalsFor(principal, readQuery(request, ListApprovalsQuerySchema), database) });
});
