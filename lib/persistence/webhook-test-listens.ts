import type { WebhookTestCapture, WebhookTestListen, WebhookTestResult } from "@/lib/contracts/webhook-test";
import { WebhookTestCaptureSchema } from "@/lib/contracts/webhook-test";
import { hookPath } from "@/nodes/webhook/definition";
import { BUSY_TRANSACTION, providerOf, type StudioDatabase } from "./database";
import { ConflictError, NotFoundError } from "./errors";
import { newId } from "./ids";
import type { LiveWebhook } from "./publishing";
import { parsedDefinition } from "./run-queries";

/**
 * Listens on webhook test addresses (/hooks-test/{path}): one row per address
 * while an editor waits for a delivery there. Stored, not kept in memory,
 * because on PostgreSQL the delivery may reach one web process and the
 * listening editor's stream another. A listen takes one delivery: claiming it
 * is a conditional update, so of two deliveries at once exactly one wins.
 */

/** Every process hears on it that a listen changed (captured, stopped, replaced): the listen id only, the row holds the rest. */
export const WEBHOOK_TESTS_CHANNEL = "studio_webhook_tests";

/** Starts listening on the webhook node `nodeId` of `version`, replacing this node's earlier listen (`replaced`, its id); ConflictError when another workflow's node listens at that address now. */
export async function openTestListen(
  workflowId: string,
  version: number,
  nodeId: string,
  seconds: number,
  database: StudioDatabase,
  now = Date.now(),
): Promise<{ listen: WebhookTestListen; replaced: string | null }> {
  const row = await database.workflowVersion.findUnique({ where: { workflowId_version: { workflowId, version } } });
  if (!row) throw new NotFoundError("workflow version", `${workflowId}@${version}`);
  const node = parsedDefinition(row.id, row.definition).nodes.find((each) => each.id === nodeId);
  if (!node || node.kind !== "webhook") throw new NotFoundError("webhook node", `${nodeId} (in version ${version})`);
  const path = hookPath(node);
  const listenId = newId(now);
  const expiresAt = new Date(now + seconds * 1000);
  const replaced = await database.$transaction(async (transaction) => {
    // Listens that are over (expired, or their delivery came) hold nothing.
    await transaction.webhookTestListen.deleteMany({ where: { OR: [{ expiresAt: { lte: new Date(now) } }, { captured: { not: null } }] } });
    const present = await transaction.webhookTestListen.findUnique({ where: { path } });
    if (present && (present.workflowId !== workflowId || present.nodeId !== nodeId)) {
      throw new ConflictError("webhook test listen", path, `Another webhook listens at /hooks-test/${path} right now; wait until it stops (at most ${Math.ceil((present.expiresAt.getTime() - now) / 1000)} s), or give this webhook another path.`);
    }
    const data = { listenId, workflowId, nodeId, versionId: row.id, expiresAt, captured: null, capturedAt: null, runId: null, problem: null, createdAt: new Date(now) };
    await transaction.webhookTestListen.upsert({ where: { path }, create: { path, ...data }, update: data });
    return present?.listenId ?? null;
  }, BUSY_TRANSACTION);
  if (replaced) await announce(replaced, database);
  return { listen: { listenId, workflowId, nodeId, version, path, expiresAt: expiresAt.toISOString() }, replaced };
}

/** A listening webhook as a test delivery finds it: the same as a live one, the draft version in place of the published one. */
export interface ListeningWebhook extends LiveWebhook {
  listenId: string;
}

/** The listen at /hooks-test/{path} still waiting for its delivery, or null. */
export async function findListeningWebhook(path: string, database: StudioDatabase, now = Date.now()): Promise<ListeningWebhook | null> {
  const listen = await database.webhookTestListen.findFirst({
    where: { path, captured: null, expiresAt: { gt: new Date(now) } },
    include: { workflow: { select: { name: true, latestVersion: true } } },
  });
  if (!listen) return null;
  const version = await database.workflowVersion.findUnique({ where: { id: listen.versionId }, select: { version: true, definition: true } });
  const definition = version ? parsedDefinition(listen.versionId, version.definition) : null;
  const node = definition?.nodes.find((each) => each.id === listen.nodeId);
  if (!version || !definition || node?.kind !== "webhook") return null;
  return {
    listenId: listen.listenId,
    path: listen.path,
    hookId: node.hookId,
    nodeId: listen.nodeId,
    workflowId: listen.workflowId,
    workflowName: listen.workflow.name,
    versionId: listen.versionId,
    version: version.version,
    latestVersion: listen.workflow.latestVersion,
    definition,
  };
}

/** Takes the listen's one delivery; false when it is over already (another delivery won, it expired or was stopped). */
export async function claimTestListen(listenId: string, capture: WebhookTestCapture, database: StudioDatabase, now = Date.now()): Promise<boolean> {
  const { count } = await database.webhookTestListen.updateMany({
    where: { listenId, captured: null, expiresAt: { gt: new Date(now) } },
    data: { captured: JSON.stringify(capture), capturedAt: new Date(now) },
  });
  return count === 1;
}

/** Records what the captured delivery came to, and tells every process's listeners. */
export async function finishTestListen(listenId: string, outcome: { runId: string } | { problem: string }, database: StudioDatabase): Promise<void> {
  await database.webhookTestListen.updateMany({ where: { listenId }, data: "runId" in outcome ? { runId: outcome.runId } : { problem: outcome.problem.slice(0, 2000) } });
  await announce(listenId, database);
}

/** Stops a listen that has not had its delivery; false when there was none to stop. */
export async function stopTestListen(workflowId: string, nodeId: string, listenId: string, database: StudioDatabase): Promise<boolean> {
  const { count } = await database.webhookTestListen.deleteMany({ where: { listenId, workflowId, nodeId, captured: null } });
  if (count > 0) await announce(listenId, database);
  return count > 0;
}

/** How a listen stands, as its stream reports it. */
export type TestListenState =
  | { state: "listening"; listen: WebhookTestListen }
  /** The delivery came and was dealt with (a run started, or a problem said why not). */
  | { state: "captured"; listen: WebhookTestListen; result: WebhookTestResult }
  | { state: "expired"; listen: WebhookTestListen }
  /** Stopped, replaced by a newer listen, or never existed. */
  | { state: "stopped" };

export async function readTestListen(workflowId: string, nodeId: string, listenId: string, database: StudioDatabase, now = Date.now()): Promise<TestListenState> {
  const row = await database.webhookTestListen.findUnique({ where: { listenId }, });
  if (!row || row.workflowId !== workflowId || row.nodeId !== nodeId) return { state: "stopped" };
  const version = await database.workflowVersion.findUnique({ where: { id: row.versionId }, select: { version: true } });
  const listen: WebhookTestListen = { listenId, workflowId, nodeId, version: version?.version ?? 0, path: row.path, expiresAt: row.expiresAt.toISOString() };
  const expired = row.expiresAt.getTime() <= now;
  if (row.captured !== null) {
    const capture = WebhookTestCaptureSchema.parse(JSON.parse(row.captured));
    if (row.runId !== null || row.problem !== null) return { state: "captured", listen, result: { capture, runId: row.runId, problem: row.problem } };
    // Claimed but never finished: the process that took it went away before starting the run.
    if (expired) return { state: "captured", listen, result: { capture, runId: null, problem: "The studio stopped before the run could start; send the delivery again." } };
    return { state: "listening", listen };
  }
  return expired ? { state: "expired", listen } : { state: "listening", listen };
}

/** On PostgreSQL every process hears it (this one included); on SQLite there is one process and its listeners are woken by the caller. */
async function announce(listenId: string, database: StudioDatabase): Promise<void> {
  if (providerOf(database) === "postgresql") await database.$executeRawUnsafe("SELECT pg_notify($1, $2)", WEBHOOK_TESTS_CHANNEL, listenId);
}
