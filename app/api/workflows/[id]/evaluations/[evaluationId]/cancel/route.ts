import { json, pathId, route } from "@/lib/server/http";
import { stopEvaluation } from "@/lib/server/evaluations/evaluations";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; evaluationId: string }> };

/** Cancels an evaluation: no more rows start, its running rows' runs are cancelled. 409 once it has ended. */
export const POST = route("POST /api/workflows/[id]/evaluations/[evaluationId]/cancel", async (_request, { params }: Context, principal) => {
  const { id, evaluationId } = await params;
  return json({ evaluation: await stopEvaluation(principal, pathId(id, "workflow"), pathId(evaluationId, "evaluation")) });
});
