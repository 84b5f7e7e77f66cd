import { listRuns } from "@/lib/persistence/run-queries";
import { RunListQuerySchema } from "@/lib/contracts/run-list";
import { visibleWorkflows } from "@/lib/server/access/workflow-access";
import { json, readQuery, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

/** A page of the runs of the workflows the caller may see (lib/contracts/run-list.ts): `{ runs, page: { nextCursor, total }, usage }` (usage: the tokens and cost of every run the filter matches). */
export const GET = route("GET /api/runs", async (request, _context, principal) => {
  const { database } = await startStudio();
  const query = readQuery(request, RunListQuerySchema);
  const { items, page, usage } = await listRuns(query, visibleWorkflows(principal), database);
  return json({ runs: items, page, usage });
});
