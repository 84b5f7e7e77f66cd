import { getRunDetail } from "@/lib/persistence/run-queries";
import { json, pathId, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

/** The run with its status, per-node states and outputs, and its approvals. */
export const GET = route(async (_request, { params }: { params: Promise<{ id: string }> }) => {
  await startStudio();
  const id = pathId((await params).id, "run");
  return json({ run: await getRunDetail(id) });
});
