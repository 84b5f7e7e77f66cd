import { z } from "zod";
import { EvaluationVersionSchema } from "@/lib/contracts/evaluation";
import { json, pathId, readQuery, route } from "@/lib/server/http";
import { evaluationPreflight } from "@/lib/server/evaluations/evaluations";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

const QuerySchema = z.object({
  version: z
    .union([z.literal("draft"), z.coerce.number()])
    .default("draft")
    .pipe(EvaluationVersionSchema),
});

/** What the evaluation form says before a start (`?version=draft|N`): the steps that ask for approval in every row, those kept from pins, and a refusal. */
export const GET = route("GET /api/workflows/[id]/evaluations/preflight", async (request, { params }: Context) => {
  const { version } = readQuery(request, QuerySchema);
  return json({ preflight: await evaluationPreflight(pathId((await params).id, "workflow"), version) });
});
