import { z } from "zod";
import { json, readBody, readQuery, route } from "@/lib/server/http";
import { validateWithStudio } from "@/lib/server/workflow-api";

export const dynamic = "force-dynamic";

const ValidateQuerySchema = z.object({
  /** The saved workflow the definition is a draft of, so it cannot name itself its error workflow. */
  workflowId: z.string().trim().min(1).max(64).optional(),
});

/** Every problem of a definition at once, each with its node and field, plus its derived requirements. */
export const POST = route("POST /api/workflows/validate", async (request) => {
  const { workflowId } = readQuery(request, ValidateQuerySchema);
  const body = await readBody(request, z.unknown());
  const { valid, problems, requirements } = await validateWithStudio(body, workflowId ?? null);
  return json({ valid, problems, requirements });
});
