import { json, readBody, route } from "@/lib/server/http";
import { importWorkflow } from "@/lib/server/workflow-api";
import { CreateWorkflowBodySchema } from "@/lib/validations/workflow";

export const dynamic = "force-dynamic";

/**
 * Imports a workflow file. It arrives in `default` mode with gated policies
 * whatever the file chose; `dropped` lists each setting that was removed, so
 * the studio can say so.
 */
export const POST = route("POST /api/workflows/import", async (request, _context, principal) => {
  const definition = await readBody(request, CreateWorkflowBodySchema);
  return json(await importWorkflow(request, principal, definition), 201);
});
