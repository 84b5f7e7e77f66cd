import { duplicateWorkflow } from "@/lib/persistence";
import { json, pathId, readBody, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";
import { DuplicateWorkflowBodySchema } from "@/lib/validations/workflow";

export const dynamic = "force-dynamic";

export const POST = route(async (request, { params }: { params: Promise<{ id: string }> }) => {
  await startStudio();
  const id = pathId((await params).id, "workflow");
  const body = await readBody(request, DuplicateWorkflowBodySchema.optional());
  return json({ workflow: await duplicateWorkflow(id, body?.name) }, 201);
});
