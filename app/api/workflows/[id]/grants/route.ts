import { workflowGrants } from "@/lib/persistence/grant-store";
import { scopesOnWorkflow } from "@/lib/server/access/workflow-access";
import { json, pathId, route } from "@/lib/server/http";
import { startStudio } from "@/lib/server/studio";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/**
 * The workflow's "Always allow" grants: which writes go ahead without asking,
 * who allowed them, until when; and whether the caller may revoke them (so a
 * page offers Revoke only to those the server lets).
 */
export const GET = route("GET /api/workflows/[id]/grants", async (_request, { params }: Context, principal) => {
  const { database } = await startStudio();
  const id = pathId((await params).id, "workflow");
  const scopes = await scopesOnWorkflow(principal, id, database);
  return json({ grants: await workflowGrants(id, database), mayRevoke: scopes?.has("approval:decide") ?? false });
});
