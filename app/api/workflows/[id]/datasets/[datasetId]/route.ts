import { json, pathId, route } from "@/lib/server/http";
import { removeDataset, workflowDataset } from "@/lib/server/datasets";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; datasetId: string }> };

/** One dataset with its rows in order. */
export const GET = route("GET /api/workflows/[id]/datasets/[datasetId]", async (_request, { params }: Context) => {
  const { id, datasetId } = await params;
  return json({ dataset: await workflowDataset(pathId(id, "workflow"), pathId(datasetId, "dataset")) });
});

/** Deletes a dataset and its rows. */
export const DELETE = route("DELETE /api/workflows/[id]/datasets/[datasetId]", async (_request, { params }: Context) => {
  const { id, datasetId } = await params;
  await removeDataset(pathId(id, "workflow"), pathId(datasetId, "dataset"));
  return new Response(null, { status: 204 });
});
