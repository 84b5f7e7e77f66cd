import { listRuns } from "@/lib/persistence/run-queries";
import { json, readQuery, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";
import { ListRunsQuerySchema } from "@/lib/validations/run";

export const dynamic = "force-dynamic";

export const GET = route(async (request) => {
  await startStudio();
  const query = readQuery(request, ListRunsQuerySchema);
  return json({ runs: await listRuns(query) });
});
