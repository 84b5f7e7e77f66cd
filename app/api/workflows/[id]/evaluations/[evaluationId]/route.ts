import { json, pathId, route } from "@/lib/server/http";
import { workflowEvaluation } from "@/lib/server/evaluations/evaluations";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; evaluationId: string }> };

/** One evaluation with every row's result: its run, output, verdicts and figures. */
export const GET = route("GET /api/workflows/[id]/evaluations/[evaluationId]", async (_request, { params }: Context) => {
  const { id, evaluationId } = await params;
  return json({ evaluation: await workflowEvaluation(pathId(id, "workflow"), pathId(evaluationId, "evaluation")) });
});
