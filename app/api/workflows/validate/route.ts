import { z } from "zod";
import { requireWorkflowScope } from "@/lib/server/access/authorize";
import { json, readBody, readQuery, route } from "@/lib/server/http";
import { validateWithStudio } from "@/lib/server/workflow-api";

export const dynamic = "force-dynamic";

const ValidateQuerySchema = z.object({
  /** The saved workflow the definition is a draft of, so it cannot name itself its error workflow. */
  workflowId: z.string().trim().min(1).max(64).optional(),
});

/** Every problem of a definition at once, each with its node and field, plus its derived requirements. */
export const POST = route("POST /api/workflows/validate", async (request, _context, principal) => {
  const { workflowId } = readQuery(request, ValidateQuerySchema);
  // A draft of a saved workflow: one the caller reads (else the same 404 as one that does not exist).
  if (workflowId !== undefined) await requireWorkflowScope(principal, workflowId, "workflow:read", request);
  const body = await readBody(request, z.unknown());
  const { valid, problems, requirements } = await validateWithStudio(principal, body, workflowId ?? null);
  return json({ valid, problems, requirements });
});
