import { isEmailAddress, type NotificationChoicesBody, type NotificationChoicesView, type WebhookTargetBody, type WorkflowWebhookView } from "@/lib/contracts/notifications";
import { readEnvironment } from "@/lib/env";
import { recordAudit } from "@/lib/persistence/audit-store";
import { NotFoundError } from "@/lib/persistence/errors";
import { readWebhook, removeWebhook, saveWebhook } from "@/lib/persistence/notification-webhook-store";
import { clientAddress, type Principal } from "./access/principal";
import { HttpError } from "./http-error";
import { startStudio } from "./studio";

/**
 * The notification settings' routes: a person's own choices (GET/PUT
 * /api/me/notifications) and a workflow's webhook (GET/PUT/DELETE
 * /api/workflows/{id}/notification-webhook). Each change is in the security
 * log, never with the signing secret; the sweep reads them at its next pass.
 */

/** What the log keeps of a webhook: where it goes (host only: the URL may hold a token) and its format. */
function webhookForLog(webhook: WebhookTargetBody | null): Record<string, unknown> | null {
  return webhook === null ? null : { host: new URL(webhook.url).host, format: webhook.format, secretChanged: webhook.secret !== undefined };
}


export async function notificationChoices(principal: Principal): Promise<NotificationChoicesView> {
  const { database } = await startStudio();
  const person = await database.person.findUnique({ where: { id: principal.personId }, select: { login: true, notifyByEmail: true, notifyInBrowser: true } });
  if (!person) throw new HttpError(404, "Your person record is gone; sign in again.");
  return {
    email: person.notifyByEmail,
    browser: person.notifyInBrowser,
    webhook: await readWebhook({ personId: principal.personId }, database),
    emailAddress: isEmailAddress(person.login) ? person.login : null,
    mailServer: readEnvironment().STUDIO_SMTP_URL !== undefined,
  };
}

export async function changeNotificationChoices(request: Request, principal: Principal, body: NotificationChoicesBody): Promise<NotificationChoicesView> {
  const { database } = await startStudio();
  const owner = { personId: principal.personId };
  // The webhook first: a 422 for a missing secret leaves the rest as it was.
  if (body.webhook === null) await removeWebhook(owner, database);
  else await saveWebhook(owner, body.webhook, ["webhook"], database);
  await database.person.update({ where: { id: principal.personId }, data: { notifyByEmail: body.email, notifyInBrowser: body.browser } });
  await recordAudit(
    { actor: principal.person, actorId: principal.personId, action: "notification-choices-changed", detail: { email: body.email, browser: body.browser, webhook: webhookForLog(body.webhook) }, clientAddress: clientAddress(request) },
    database,
  );
  return notificationChoices(principal);
}

async function workflowName(workflowId: string): Promise<string> {
  const { database } = await startStudio();
  const workflow = await database.workflow.findUnique({ where: { id: workflowId }, select: { name: true } });
  if (!workflow) throw new NotFoundError("workflow", workflowId);
  return workflow.name;
}

export async function workflowWebhook(workflowId: string): Promise<WorkflowWebhookView> {
  await workflowName(workflowId);
  return { webhook: await readWebhook({ workflowId }, (await startStudio()).database) };
}

export async function changeWorkflowWebhook(request: Request, principal: Principal, workflowId: string, body: WebhookTargetBody | null): Promise<WorkflowWebhookView> {
  const name = await workflowName(workflowId);
  const { database } = await startStudio();
  if (body === null) {
    if (!(await removeWebhook({ workflowId }, database))) throw new NotFoundError("approval webhook of workflow", workflowId);
  } else {
    await saveWebhook({ workflowId }, body, [], database);
  }
  await recordAudit(
    { actor: principal.person, actorId: principal.personId, action: "notification-webhook-changed", target: workflowId, detail: { workflow: name, webhook: webhookForLog(body) }, clientAddress: clientAddress(request) },
    database,
  );
  return workflowWebhook(workflowId);
}
