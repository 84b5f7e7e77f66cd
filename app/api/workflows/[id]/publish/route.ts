import { publishedState } from "@/lib/persistence/publishing";
import { scheduleCounts } from "@/lib/persistence/schedule-store";
import { json, pathId, readBody, route } from "@/lib/server/http";
import { publishWorkflow, unpublishWorkflow } from "@/lib/server/publishing";
import { startStudio } from "@/lib/server/studio";
import { PublishWorkflowBodySchema } from "@/lib/validations/workflow";

export const dynamic = "force-dynamic";

/** Which version is live, its webhooks' paths, and per schedule node how its slots went (started, skipped while the previous run went on, queued). */
export const GET = route("GET /api/workflows/[id]/publish", async (_request, { params }: { params: Promise<{ id: string }> }) => {
  const studio = await startStudio();
  const id = pathId((await params).id, "workflow");
  return json({ published: await publishedState(id, studio.database), schedules: await scheduleCounts(id, studio.database) });
});

/** Makes a version (default the newest) live: its triggers start runs. 422 with its problems when it cannot run; 409 when a webhook path is taken. */
export const POST = route("POST /api/workflows/[id]/publish", async (request, { params }: { params: Promise<{ id: string }> }, principal) => {
  const id = pathId((await params).id, "workflow");
  const body = await readBody(request, PublishWorkflowBodySchema.optional());
  return json({ published: await publishWorkflow(request, principal, id, body?.version) });
});

/** Stops the workflow's triggers. */
export const DELETE = route("DELETE /api/workflows/[id]/publish", async (request, { params }: { params: Promise<{ id: string }> }, principal) => {
  const id = pathId((await params).id, "workflow");
  return json({ published: await unpublishWorkflow(request, principal, id) });
});
