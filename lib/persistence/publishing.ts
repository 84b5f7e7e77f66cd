import type { WorkflowDefinition } from "@/lib/workflow/definition";
import { hookPath } from "@/nodes/webhook/definition";
import { BUSY_TRANSACTION, sqliteConnection, type StudioDatabase } from "./database";
import { ConflictError, NotFoundError } from "./errors";
import { readDate, statement } from "./prepared";
import { isUniqueViolation } from "./prisma-errors";
import { parsedDefinition, rememberedDefinition, type RunnableVersion } from "./run-queries";
import { dropQueued } from "./schedule-store";

/**
 * Publishing: which version of a workflow its triggers start. Saving a draft
 * adds a version and changes nothing live; publishing a version writes one
 * WebhookEndpoint row per webhook node of it (the table every process reads
 * a delivery's address in), unpublishing removes them. Idempotency keys of
 * webhook deliveries are kept here too.
 */

export interface PublishedState {
  publishedVersion: number | null;
  publishedAt: string | null;
  /** The live webhooks: each node and the path after /hooks/. */
  webhooks: { nodeId: string; path: string }[];
}

/** How long a delivery's idempotency key answers with its first run. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Makes `version` (default the newest) the live one. ConflictError when one of
 * its webhook paths belongs to another workflow's live webhook; nothing changes then.
 */
export async function publishVersion(
  workflowId: string,
  version: number | undefined,
  database: StudioDatabase,
  /** Checks the version before anything changes; throws to refuse it. */
  check: (versionId: string, definition: WorkflowDefinition) => Promise<void> = async () => undefined,
): Promise<PublishedState> {
  const workflow = await database.workflow.findUnique({ where: { id: workflowId }, select: { latestVersion: true } });
  if (!workflow) throw new NotFoundError("workflow", workflowId);
  const number = version ?? workflow.latestVersion;
  const row = await database.workflowVersion.findUnique({ where: { workflowId_version: { workflowId, version: number } } });
  if (!row) throw new NotFoundError("workflow version", `${workflowId}@${number}`);
  const definition = parsedDefinition(row.id, row.definition);
  await check(row.id, definition);
  const webhooks = definition.nodes.flatMap((node) => (node.kind === "webhook" ? [{ nodeId: node.id, hookId: node.hookId, path: hookPath(node) }] : []));
  const publishedAt = new Date();
  try {
    await database.$transaction(async (transaction) => {
      await transaction.webhookEndpoint.deleteMany({ where: { workflowId } });
      for (const webhook of webhooks) {
        await transaction.webhookEndpoint.create({ data: { ...webhook, workflowId, versionId: row.id, createdAt: publishedAt } });
      }
      await transaction.workflow.update({ where: { id: workflowId }, data: { publishedVersion: number, publishedAt } });
    }, BUSY_TRANSACTION);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const taken = await database.webhookEndpoint.findMany({ where: { path: { in: webhooks.map((webhook) => webhook.path) }, workflowId: { not: workflowId } }, include: { workflow: { select: { name: true } } } });
    const names = taken.map((endpoint) => `/hooks/${endpoint.path} (live in "${endpoint.workflow.name}")`).join(", ");
    throw new ConflictError("webhook path", workflowId, `Another workflow's webhook has this address: ${names || "a path of this version"}. Choose another path for this webhook, or unpublish the other workflow.`);
  }
  return { publishedVersion: number, publishedAt: publishedAt.toISOString(), webhooks: webhooks.map(({ nodeId, path }) => ({ nodeId, path })) };
}

/** Stops the workflow's triggers; its versions stay. */
export async function unpublish(workflowId: string, database: StudioDatabase): Promise<PublishedState> {
  const count = await database.$transaction(async (transaction) => {
    const { count } = await transaction.workflow.updateMany({ where: { id: workflowId }, data: { publishedVersion: null, publishedAt: null } });
    await transaction.webhookEndpoint.deleteMany({ where: { workflowId } });
    // Slots waiting for a previous run start nothing once the workflow is not live.
    await dropQueued(workflowId, transaction);
    return count;
  }, BUSY_TRANSACTION);
  if (count === 0) throw new NotFoundError("workflow", workflowId);
  return { publishedVersion: null, publishedAt: null, webhooks: [] };
}

export async function publishedState(workflowId: string, database: StudioDatabase): Promise<PublishedState> {
  const workflow = await database.workflow.findUnique({
    where: { id: workflowId },
    select: { publishedVersion: true, publishedAt: true, webhookEndpoints: { select: { nodeId: true, path: true }, orderBy: { path: "asc" } } },
  });
  if (!workflow) throw new NotFoundError("workflow", workflowId);
  return { publishedVersion: workflow.publishedVersion, publishedAt: workflow.publishedAt?.toISOString() ?? null, webhooks: workflow.webhookEndpoints };
}

/**
 * A live webhook as a delivery finds it: where it points, and the published version a delivery's run starts from
 * (its `latestVersion` the workflow's newest, which may be newer than the published one).
 */
export interface LiveWebhook extends RunnableVersion {
  path: string;
  hookId: string;
  nodeId: string;
}

const FIND_LIVE_WEBHOOK = `SELECT e."path", e."hookId", e."nodeId", e."workflowId", e."versionId", w."name" AS "workflowName", w."latestVersion" AS "latestVersion", v."version"
  FROM "WebhookEndpoint" e JOIN "Workflow" w ON w."id" = e."workflowId" JOIN "WorkflowVersion" v ON v."id" = e."versionId" WHERE e."path" = ?`;
const VERSION_DEFINITION = `SELECT "definition" FROM "WorkflowVersion" WHERE "id" = ?`;

/**
 * The live webhook at /hooks/{path}, or null. On every delivery: prepared statements where there is a SQLite
 * connection, and the definition's text read only when its version is not parsed and remembered already.
 */
export async function findLiveWebhook(path: string, database: StudioDatabase): Promise<LiveWebhook | null> {
  const connection = await sqliteConnection(database);
  if (connection) {
    const row = statement(connection.database, FIND_LIVE_WEBHOOK).get(path) as Omit<LiveWebhook, "definition"> | undefined;
    if (!row) return null;
    const definition =
      rememberedDefinition(row.versionId) ??
      parsedDefinition(row.versionId, (statement(connection.database, VERSION_DEFINITION).get(row.versionId) as { definition: string }).definition);
    return { ...row, definition };
  }
  const endpoint = await database.webhookEndpoint.findUnique({ where: { path }, include: { workflow: { select: { name: true, latestVersion: true } } } });
  if (!endpoint) return null;
  const remembered = rememberedDefinition(endpoint.versionId);
  const version = await database.workflowVersion.findUnique({ where: { id: endpoint.versionId }, select: { version: true, definition: !remembered } });
  if (!version) return null;
  return {
    path: endpoint.path,
    hookId: endpoint.hookId,
    nodeId: endpoint.nodeId,
    workflowId: endpoint.workflowId,
    workflowName: endpoint.workflow.name,
    versionId: endpoint.versionId,
    version: version.version,
    latestVersion: endpoint.workflow.latestVersion,
    definition: remembered ?? parsedDefinition(endpoint.versionId, version.definition!),
  };
}

/** Counts a refused delivery against the webhook (its body is never stored). */
export async function countRejection(path: string, database: StudioDatabase): Promise<void> {
  await database.webhookEndpoint.updateMany({ where: { path }, data: { rejections: { increment: 1 }, lastRejectedAt: new Date() } });
}

const FIND_DELIVERY = `SELECT "runId", "createdAt" FROM "WebhookDelivery" WHERE "hookId" = ? AND "idempotencyKey" = ?`;
const FORGET_DELIVERY = `DELETE FROM "WebhookDelivery" WHERE "hookId" = ? AND "idempotencyKey" = ?`;

/**
 * The run an earlier delivery with this key started, within the idempotency
 * window; null otherwise. A key older than the window is forgotten here, so
 * the delivery that brings it again starts a run.
 */
export async function runOfDelivery(hookId: string, idempotencyKey: string, database: StudioDatabase, now = Date.now()): Promise<string | null> {
  const connection = await sqliteConnection(database);
  const row = connection
    ? (statement(connection.database, FIND_DELIVERY).get(hookId, idempotencyKey) as { runId: string; createdAt: unknown } | undefined)
    : await database.webhookDelivery.findUnique({ where: { hookId_idempotencyKey: { hookId, idempotencyKey } }, select: { runId: true, createdAt: true } });
  if (!row) return null;
  const createdAt = Date.parse(readDate(row.createdAt)!);
  if (now - createdAt < IDEMPOTENCY_WINDOW_MS) return row.runId;
  if (connection) statement(connection.database, FORGET_DELIVERY).run(hookId, idempotencyKey);
  else await database.webhookDelivery.deleteMany({ where: { hookId, idempotencyKey } });
  return null;
}

/** Forgets every idempotency key older than the window. */
export async function forgetOldDeliveries(database: StudioDatabase, now = Date.now()): Promise<number> {
  const { count } = await database.webhookDelivery.deleteMany({ where: { createdAt: { lt: new Date(now - IDEMPOTENCY_WINDOW_MS) } } });
  return count;
}
