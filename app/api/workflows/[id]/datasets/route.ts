import { DatasetUploadQuerySchema } from "@/lib/contracts/evaluation-dataset";
import { json, pathId, readQuery, route } from "@/lib/server/http";
import { uploadDataset, workflowDatasets } from "@/lib/server/datasets";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** The workflow's evaluation datasets, newest first. */
export const GET = route("GET /api/workflows/[id]/datasets", async (_request, { params }: Context) => json({ datasets: await workflowDatasets(pathId((await params).id, "workflow")) }));

/**
 * Makes a dataset from the file in the body: `?name=…&format=csv|jsonl`. 201 with it; 422 naming every bad row (by
 * its line) or the query's field; 413 past the size limit; 409 for a name the workflow's datasets already have.
 */
export const POST = route("POST /api/workflows/[id]/datasets", async (request, { params }: Context, principal) => {
  const workflowId = pathId((await params).id, "workflow");
  const { name, format } = readQuery(request, DatasetUploadQuerySchema);
  const made = await uploadDataset(request, principal, workflowId, name, format);
  return "refused" in made ? made.refused : json({ dataset: made.dataset }, 201);
});
