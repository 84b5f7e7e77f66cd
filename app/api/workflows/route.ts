import { createWorkflow, listWorkflows } from "@/lib/persistence";
import { json, readBody, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";
import { CreateWorkflowBodySchema } from "@/lib/validations/workflow";

export const dynamic = "force-dynamic";

export const GET = route(async () => {
  await startStudio();
  return json({ workflows: await listWorkflows() });
});

/** Creates a workflow (version 1). An incomplete workflow may be saved; validation says what is missing. */
export const POST = route(async (request) => {
  await startStudio();
  const definition = await readBody(request, CreateWorkflowBodySchema);
  return json({ workflow: await createWorkflow(definition) }, 201);
});
