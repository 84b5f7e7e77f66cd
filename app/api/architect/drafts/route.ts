import { DraftRequestSchema } from "@/lib/contracts/architect";
import { draftStream } from "@/lib/server/architect";
import { requireWorkflowScope } from "@/lib/server/access/authorize";
import { readBody, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/**
 * Drafts a workflow from a goal with the person's chosen model (lib/architect): the rounds as server-sent events
 * (`round`, `partial`, `checked`, then `done` or `failed`). Nothing is saved or run; the editor shows a proposal.
 * A draft of a saved workflow is checked as that workflow's (its secrets' limits, the workflows it may call).
 */
export const POST = route("POST /api/architect/drafts", async (request, _context, principal) => {
  const body = await readBody(request, DraftRequestSchema);
  if (body.workflowId !== undefined) await requireWorkflowScope(principal, body.workflowId, "workflow:edit", request);
  return draftStream(body, principal, request.signal);
});
