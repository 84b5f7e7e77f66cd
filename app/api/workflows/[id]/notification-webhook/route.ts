import { WorkflowWebhookBodySchema } from "@/lib/contracts/notifications";
import { json, pathId, readBody, route } from "@/lib/server/http";
import { changeWorkflowWebhook, workflowWebhook } from "@/lib/server/notification-settings";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** The webhook told of every approval of the workflow's runs (secret masked), or null. */
export const GET = route("GET /api/workflows/[id]/notification-webhook", async (_request, { params }: Context) => json(await workflowWebhook(pathId((await params).id, "workflow"))));

/** Sets it; 422 naming `url`, `format` or `secret` for a bad body. Without `secret` the stored one is kept. */
export const PUT = route("PUT /api/workflows/[id]/notification-webhook", async (request, { params }: Context, principal) => {
  const workflowId = pathId((await params).id, "workflow");
  return json(await changeWorkflowWebhook(request, principal, workflowId, await readBody(request, WorkflowWebhookBodySchema)));
});

/** Removes it: the workflow's approvals are told to nobody but the people who may decide them. */
export const DELETE = route("DELETE /api/workflows/[id]/notification-webhook", async (request, { params }: Context, principal) =>
  json(await changeWorkflowWebhook(request, principal, pathId((await params).id, "workflow"), null)),
);
