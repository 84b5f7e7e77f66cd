import { json, pathId, readBody, route } from "@/lib/server/http";
import { duplicateAs } from "@/lib/server/workflow-api";
import { DuplicateWorkflowBodySchema } from "@/lib/validations/workflow";

export const dynamic = "force-dynamic";

/** A copy of the workflow, the caller's; without the settings that let actions run unasked unless they may choose those. */
export const POST = route("POST /api/workflows/[id]/duplicate", async (request, { params }: { params: Promise<{ id: string }> }, principal) => {
  const id = pathId((await params).id, "workflow");
  const body = await readBody(request, DuplicateWorkflowBodySchema.optional());
  return json({ workflow: await duplicateAs(principal, id, body?.name) }, 201);
});
