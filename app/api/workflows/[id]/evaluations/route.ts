import { EvaluationStartSchema } from "@/lib/contracts/evaluation";
import { json, pathId, readBody, route } from "@/lib/server/http";
import { startEvaluation, workflowEvaluations } from "@/lib/server/evaluations/evaluations";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** The workflow's evaluations, newest first, with their progress and per-scorer averages. */
export const GET = route("GET /api/workflows/[id]/evaluations", async (_request, { params }: Context) => json({ evaluations: await workflowEvaluations(pathId((await params).id, "workflow")) }));

/**
 * Starts an evaluation: `{ datasetId, version: "draft" | N, scorers, concurrency }`. 201 with it, its rows pending;
 * 422 naming the field (a version without an output step, a row it cannot take, a scorer's problem); 404 for a
 * dataset that is not the workflow's.
 */
export const POST = route("POST /api/workflows/[id]/evaluations", async (request, { params }: Context, principal) => {
  const workflowId = pathId((await params).id, "workflow");
  const body = await readBody(request, EvaluationStartSchema);
  return json({ evaluation: await startEvaluation(principal, workflowId, body) }, 201);
});
