import { z } from "zod";
import { MASKED_WEBHOOK_SECRET, WebhookFormatSchema, type WebhookFormat, type WebhookTargetBody, type WebhookTargetView } from "@/lib/contracts/notifications";
import { getDatabase, type StudioDatabase } from "./database";
import { newId } from "./ids";
import { getSecretBox } from "./secret-store";

/**
 * The outgoing webhooks told of waiting approvals: a workflow's or a person's,
 * at most one each. The signing secret is sealed with the studio's secret key
 * (as every secret is) and leaves this module only to sign a message.
 */

/** Whose webhook: a workflow's or a person's. */
export type WebhookOwner = { workflowId: string } | { personId: string };

/** A webhook with its secret opened: for signing a message, never for a response. */
export interface WebhookTarget {
  id: string;
  url: string;
  format: WebhookFormat;
  secret: string;
}

/** The context the secret is sealed under: a sealed value copied onto another row does not open there. */
function secretContext(id: string): string {
  return `notification-webhook:${id}`;
}

function toView(row: { url: string; format: string; updatedAt: Date }): WebhookTargetView {
  return { url: row.url, format: WebhookFormatSchema.parse(row.format), secret: MASKED_WEBHOOK_SECRET, updatedAt: row.updatedAt.toISOString() };
}

export async function readWebhook(owner: WebhookOwner, database: StudioDatabase = getDatabase()): Promise<WebhookTargetView | null> {
  const row = await database.notificationWebhook.findFirst({ where: owner, select: { url: true, format: true, updatedAt: true } });
  return row === null ? null : toView(row);
}

/**
 * Stores the owner's webhook, replacing theirs. A body without a secret keeps
 * the stored one; with none stored that is a 422 naming `fieldPath` + secret.
 */
export async function saveWebhook(owner: WebhookOwner, body: WebhookTargetBody, fieldPath: readonly string[], database: StudioDatabase = getDatabase()): Promise<WebhookTargetView> {
  const existing = await database.notificationWebhook.findFirst({ where: owner, select: { id: true } });
  if (body.secret === undefined && existing === null) {
    throw new z.ZodError([{ code: "custom", path: [...fieldPath, "secret"], message: "give the webhook a signing secret (Generate makes one)", input: undefined }]);
  }
  const id = existing?.id ?? newId();
  const sealed = body.secret === undefined ? {} : { secretCiphertext: (await getSecretBox(database)).seal(body.secret, secretContext(id)) };
  const row = existing
    ? await database.notificationWebhook.update({ where: { id }, data: { url: body.url, format: body.format, ...sealed } })
    : await database.notificationWebhook.create({ data: { id, ...owner, url: body.url, format: body.format, secretCiphertext: sealed.secretCiphertext! } });
  return toView(row);
}

/** Removes the owner's webhook; false when they had none. */
export async function removeWebhook(owner: WebhookOwner, database: StudioDatabase = getDatabase()): Promise<boolean> {
  return (await database.notificationWebhook.deleteMany({ where: owner })).count > 0;
}

/** The webhooks of a workflow and of people, with their secrets opened, by id. */
export async function openWebhooks(ids: readonly string[], database: StudioDatabase = getDatabase()): Promise<Map<string, WebhookTarget>> {
  if (ids.length === 0) return new Map();
  const [rows, box] = await Promise.all([database.notificationWebhook.findMany({ where: { id: { in: [...ids] } } }), getSecretBox(database)]);
  return new Map(rows.map((row) => [row.id, { id: row.id, url: row.url, format: WebhookFormatSchema.parse(row.format), secret: box.open(row.secretCiphertext, secretContext(row.id)) }]));
}
