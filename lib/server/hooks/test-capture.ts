import type { WebhookTestCapture } from "@/lib/contracts/webhook-test";
import { listSecrets } from "@/lib/persistence/secret-store";
import { finishTestListen } from "@/lib/persistence/webhook-test-listens";
import { SECRET_MASK, SecretMasker } from "@/lib/tools/secrets";
import { mapStrings } from "@/lib/tools/tool-result";
import type { WebhookNode } from "@/nodes/webhook/definition";
import type { Studio } from "../studio-types";
import { fieldsOf, type HookRequest } from "./request";

/** Headers that carry who the sender is, whatever the webhook checks: never shown. */
const ALWAYS_MASKED = new Set(["authorization", "cookie", "proxy-authorization"]);

/**
 * A test delivery as the listening editor sees it, so a person can map fields
 * from a real request: every header (not only those the node keeps), the
 * query and the parsed body, with the webhook's credential header,
 * Authorization and Cookie replaced by the mask, and any stored secret's
 * value masked wherever it appears (a token pasted into a query or a body).
 */
export async function inspectionCapture(studio: Studio, node: WebhookNode, request: HookRequest, body: unknown): Promise<WebhookTestCapture> {
  const masker = new SecretMasker();
  for (const { name } of await listSecrets(studio.database)) {
    const value = await studio.secrets(name);
    if (value) masker.add(value);
  }
  const credential = node.authentication === "none" ? null : node.header.toLowerCase();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    headers[name] = name === credential || ALWAYS_MASKED.has(name) ? SECRET_MASK : masker.mask(value);
  }
  const mask = <Value>(value: Value): Value => (masker.isEmpty ? value : (mapStrings(value, (text) => masker.mask(text)) as Value));
  return { method: request.method, path: request.path, query: mask(fieldsOf(request.query)), headers, body: mask(body), receivedAt: new Date().toISOString() };
}

/** Records what the listen's delivery came to and wakes its stream (in this process; others hear it from the database). */
export async function settleTestListen(studio: Studio, listenId: string, outcome: { runId: string } | { problem: string }): Promise<void> {
  await finishTestListen(listenId, outcome, studio.database);
  studio.testListens.publish(listenId, undefined);
}
