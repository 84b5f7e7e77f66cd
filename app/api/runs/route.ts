import { listRuns } from "@/lib/persistence/run-queries";
import { visibleWorkflows } from "@/lib/server/access/workflow-access";
import { json, readQuery, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";
import { ListRunsQuerySchema } from "@/lib/validations/run";

export const dynamic = "force-dynamic";

export const GET = route("GET /api/runs", async (request, _context, principal) => {
  await startStudio();
  const query = readQuery(request, ListRunsQuerySchema);
  return json({ runs: await listRuns({ ...query, workflows: visibleWorkflows(principal) }) });
});
