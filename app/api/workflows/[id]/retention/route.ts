import { RetentionPolicySchema } from "@/lib/contracts/retention";
import { json, pathId, readBody, route } from "@/lib/server/http";
import { changeRetention, clearRetention } from "@/lib/server/retention-settings";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** Gives the workflow a retention setting of its own, replacing the studio-wide one for its runs; 422 naming the field for a bad body. */
export const PUT = route("PUT /api/workflows/[id]/retention", async (request, { params }: Context, principal) => {
  const workflowId = pathId((await params).id, "workflow");
  return json(await changeRetention(request, principal, workflowId, await readBody(request, RetentionPolicySchema)));
});

/** Removes the workflow's own setting: the studio-wide one applies again. */
export const DELETE = route("DELETE /api/workflows/[id]/retention", async (request, { params }: Context, principal) => json(await clearRetention(request, principal, pathId((await params).id, "workflow"))));
