import { DatasetFromRunsSchema } from "@/lib/contracts/evaluation-dataset";
import { json, pathId, readBody, route } from "@/lib/server/http";
import { datasetFromRuns } from "@/lib/server/datasets";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** Makes a dataset of past runs: `{ name, runIds }`; their inputs become rows, succeeded runs' outputs the expected outputs. 201; 422 naming a run that no longer fits. */
export const POST = route("POST /api/workflows/[id]/datasets/from-runs", async (request, { params }: Context, principal) => {
  const workflowId = pathId((await params).id, "workflow");
  const made = await datasetFromRuns(principal, workflowId, await readBody(request, DatasetFromRunsSchema));
  return "refused" in made ? made.refused : json({ dataset: made.dataset }, 201);
});
