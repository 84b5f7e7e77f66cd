import { z } from "zod";
import { deleteWorkflow, getWorkflow } from "@/lib/persistence";
import { json, pathId, readBody, readQuery, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";
import { saveWorkflowAs } from "@/lib/server/workflow-api";
import { UpdateWorkflowBodySchema } from "@/lib/validations/workflow";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = route("GET /api/workflows/[id]", async (_request, { params }: Context) => {
  await startStudio();
  const id = pathId((await params).id, "workflow");
  return json({ workflow: await getWorkflow(id) });
});

const SaveQuerySchema = z.object({
  /** The version the editor started from; a newer saved version is a 409 rather than a silent overwrite. */
  expectedVersion: z.coerce.number().int().positive().optional(),
});

/** Saves a new version (newly choosing bypass mode or an open policy needs a recent sign-in). */
export const PUT = route("PUT /api/workflows/[id]", async (request, { params }: Context, principal) => {
  const id = pathId((await params).id, "workflow");
  const { expectedVersion } = readQuery(request, SaveQuerySchema);
  const definition = await readBody(request, UpdateWorkflowBodySchema);
  return json({ workflow: await saveWorkflowAs(request, principal, id, definition, expectedVersion === undefined ? {} : { expectedVersion }) });
});

export const DELETE = route("DELETE /api/workflows/[id]", async (_request, { params }: Context) => {
  await startStudio();
  const id = pathId((await params).id, "workflow");
  await deleteWorkflow(id);
  return new Response(null, { status: 204 });
});
