import { listWorkflowChoices } from "@/lib/persistence";
import { WorkflowChoicesQuerySchema } from "@/lib/contracts/workflow-list";
import { visibleWorkflows } from "@/lib/server/access/workflow-access";
import { json, readQuery, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

/** Names to pick a workflow by (the error workflow, a Sub-workflow step's): id, name and versions, by name, at most `limit`, with the total. */
export const GET = route("GET /api/workflows/choices", async (request, _context, principal) => {
  const { database } = await startStudio();
  const query = readQuery(request, WorkflowChoicesQuerySchema);
  return json(await listWorkflowChoices(query, visibleWorkflows(principal), database));
});
