import { listWorkflows } from "@/lib/persistence";
import { visibleWorkflows } from "@/lib/server/access/workflow-access";
import { WorkflowListQuerySchema } from "@/lib/contracts/workflow-list";
import { json, readBody, readQuery, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";
import { saveWorkflowAs } from "@/lib/server/workflow-api";
import { CreateWorkflowBodySchema } from "@/lib/validations/workflow";

export const dynamic = "force-dynamic";

/** A page of the workflows the caller may see (lib/contracts/workflow-list.ts): `{ workflows, page: { nextCursor, total } }`. */
export const GET = route("GET /api/workflows", async (request, _context, principal) => {
  const { database } = await startStudio();
  const query = readQuery(request, WorkflowListQuerySchema);
  const { items, page } = await listWorkflows(query, visibleWorkflows(principal), database);
  return json({ workflows: items, page });
});

/**
 * Creates a workflow (version 1). An incomplete workflow may be saved;
 * validation says what is missing. Choosing bypass mode or an open policy
 * needs a recent sign-in (saveWorkflowAs).
 */
export const POST = route("POST /api/workflows", async (request, _context, principal) => {
  const definition = await readBody(request, CreateWorkflowBodySchema);
  return json({ workflow: await saveWorkflowAs(request, principal, null, definition) }, 201);
});
