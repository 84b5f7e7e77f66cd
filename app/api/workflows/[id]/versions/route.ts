import { listVersions } from "@/lib/persistence";
import { json, pathId, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

export const GET = route("GET /api/workflows/[id]/versions", async (_request, { params }: { params: Promise<{ id: string }> }) => {
  await startStudio();
  const id = pathId((await params).id, "workflow");
  return json({ versions: await listVersions(id) });
});
