import { WorkflowActivityQuerySchema } from "@/lib/contracts/workflow-activity";
import { workflowActivity } from "@/lib/persistence/workflow-activity";
import { json, pathId, readQuery, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

/** Per day over the last `days` days (30 unless asked): runs, succeeded, failed, median duration, tokens and cost (lib/contracts/workflow-activity.ts). */
export const GET = route("GET /api/workflows/[id]/activity", async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { database } = await startStudio();
  const id = pathId((await params).id, "workflow");
  const { days } = readQuery(request, WorkflowActivityQuerySchema);
  return json(await workflowActivity(id, days, database));
});
