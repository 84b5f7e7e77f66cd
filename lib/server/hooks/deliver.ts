import type { RunEvent } from "@/lib/contracts/run-event";
import { countRejection, findLiveWebhook, runOfDelivery, type LiveWebhook } from "@/lib/persistence/publishing";
import { IdempotencyKeyTaken, runOutcome } from "@/lib/persistence/run-queries";
import { newId } from "@/lib/persistence/ids";
import { asText } from "@/lib/workflow/templates";
import { inputFieldsOf, runInputsSchema } from "@/lib/workflow/run-inputs";
import type { WebhookNode } from "@/nodes/webhook/definition";
import { headersReadBy, inputsFromRequest } from "@/nodes/webhook/request-mapping";
import { hostRefusal } from "../access/addressing";
import { securityHeaders } from "../access/security-headers";
import { toApiIssues } from "../http";
import { validateForRun } from "../run-validation";
import type { Studio } from "../studio";
import { refuseDelivery } from "./authentication";
import { RateLimiter } from "./rate-limit";
import { captureRequest, parseBody, type HookReply, type HookRequest } from "./request";

/**
 * Answers a webhook delivery: finds the live webhook at the path, checks the
 * request (addressed to this studio, not from another site's page unless
 * allowed, method, rate, size, credentials) before anything is stored,
 * answers a repeated idempotency key with its first run, turns the request
 * into the run's inputs through the node's mapping (a 422 naming each field
 * the run's inputs refuse), starts a run of the published version, and
 * answers at once (202) or with the run's output when it finishes; a run that
 * waits for a person or outlasts the timeout answers 202 with its address.
 * Public by design, so it reveals nothing: an unknown path and an unpublished
 * workflow are the same 404.
 */

const limiter = new RateLimiter();
const SECRET_NAME = /^\$\{([A-Z_][A-Z0-9_]*)\}$/;

export async function deliver(studio: Studio, request: HookRequest): Promise<HookReply> {
  const refusedHost = hostRefusal(request.headers.host ?? null);
  if (refusedHost) return reply(refusedHost.status, { error: refusedHost.message });
  const webhook = request.path === "" ? null : await findLiveWebhook(request.path, studio.database);
  const node = webhook?.definition.nodes.find((each): each is WebhookNode => each.id === webhook.nodeId && each.kind === "webhook");
  if (!webhook || !node) return reply(404, { error: "There is no live webhook at this address." });

  const origin = request.headers.origin;
  const fetchSite = request.headers["sec-fetch-site"];
  const browserAllowed = origin !== undefined && node.allowedOrigins.some((allowed) => sameOrigin(allowed, origin));
  const cors: Record<string, string> = browserAllowed ? { "access-control-allow-origin": origin, vary: "Origin" } : {};
  if (request.method === "OPTIONS" && browserAllowed) {
    return { status: 204, headers: { ...cors, "access-control-allow-methods": node.methods.join(", "), "access-control-allow-headers": "content-type, idempotency-key", "access-control-max-age": "600" }, body: "" };
  }
  // A page on another site (a form, a script) may not start runs here unless the webhook names its origin: the studio usually sits on
  // the person's own machine, and that page is not the person.
  if (!browserAllowed && ((origin !== undefined && origin !== "") || fetchSite === "cross-site" || fetchSite === "same-site")) {
    return rejected(studio, webhook, 403, "A web page on another site may not call this webhook; add its origin to the webhook's allowed origins if it should.");
  }
  if (!node.methods.includes(request.method as WebhookNode["methods"][number])) {
    return { ...reply(405, { error: `This webhook accepts ${node.methods.join(", ")}.` }), headers: { ...jsonHeaders(), allow: node.methods.join(", ") } };
  }
  if (!limiter.take(webhook.path, node.ratePerMinute)) {
    const retry = limiter.retryAfterSeconds(webhook.path, node.ratePerMinute);
    await countRejection(webhook.path, studio.database);
    return { ...reply(429, { error: `This webhook accepts ${node.ratePerMinute} deliveries a minute; try again in ${retry} s.` }), headers: { ...jsonHeaders(), "retry-after": String(retry) } };
  }
  const limit = node.maxBodyKilobytes * 1024;
  const declaredLength = Number(request.headers["content-length"] ?? 0);
  const raw = declaredLength > limit ? "too-large" : await request.readBody(limit);
  if (raw === "too-large") return rejected(studio, webhook, 413, `The body is larger than this webhook's limit of ${node.maxBodyKilobytes} KB.`);

  const secretName = SECRET_NAME.exec(node.secret)?.[1];
  const secret = secretName ? await studio.secrets(secretName) : undefined;
  if (node.authentication !== "none" && (secret === undefined || secret === "")) {
    console.error(`[studio] webhook /hooks/${webhook.path}: its secret ${secretName ?? "(none picked)"} is not set; deliveries are refused until it is`);
    return rejected(studio, webhook, 503, "This webhook cannot check deliveries right now.");
  }
  const refusal = refuseDelivery(node, request.headers, raw, secret ?? "");
  if (refusal) return rejected(studio, webhook, 401, refusal);

  const parsed = parseBody(request.headers["content-type"], raw);
  if ("problem" in parsed) return reply(parsed.status, { error: parsed.problem });

  const idempotencyKey = node.idempotencyHeader ? request.headers[node.idempotencyHeader.toLowerCase()]?.trim() : undefined;
  if (idempotencyKey !== undefined && (idempotencyKey === "" || idempotencyKey.length > 200)) {
    return reply(400, { error: `The ${node.idempotencyHeader} header must hold 1 to 200 characters.` });
  }
  if (idempotencyKey) {
    const earlier = await runOfDelivery(node.hookId, idempotencyKey, studio.database);
    if (earlier) return answerForRun(studio, node, earlier, request, cors, { duplicate: true });
  }

  const captured = captureRequest(request, parsed.body, [...node.keepHeaders, ...headersReadBy(node.mapping)], node.authentication === "none" ? null : node.header);
  const fields = inputFieldsOf(webhook.definition);
  const inputs = runInputsSchema(fields).safeParse(coerceToFields(inputsFromRequest(captured, node.mapping), fields));
  if (!inputs.success) {
    const issues = toApiIssues(inputs.error).map((issue) => ({ ...issue, path: `inputs.${issue.path}` }));
    return reply(422, { error: `The delivery does not give the run's inputs: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ")}`, issues }, cors);
  }
  const validation = await validateForRun(webhook.versionId, webhook.definition, { pool: studio.pool(), secrets: studio.secrets });
  if (!validation.valid) {
    console.error(`[studio] webhook /hooks/${webhook.path}: the published version ${webhook.version} of "${webhook.workflowName}" cannot run: ${validation.problems.map((problem) => problem.message).join("; ")}`);
    return reply(503, { error: "The workflow behind this webhook cannot run right now; its owner can see why in the studio." }, cors);
  }

  const runId = newId();
  const deliveryId = idempotencyKey ?? runId;
  // Listening before the run starts: a quick run may finish before start() returns.
  const outcome = node.respond === "when-finished" ? awaitOutcome(studio, runId, node.timeoutSeconds * 1000) : null;
  try {
    await studio.runs.start(
      { workflowId: webhook.workflowId, workflowName: webhook.workflowName, versionId: webhook.versionId, version: webhook.version, definition: webhook.definition },
      inputs.data,
      {
        runId,
        trigger: { kind: "webhook", nodeId: node.id, deliveryId, request: `${request.method} /hooks/${webhook.path}`.slice(0, 300) },
        triggerPayload: captured,
        ...(idempotencyKey ? { delivery: { workflowId: webhook.workflowId, hookId: node.hookId, idempotencyKey } } : {}),
      },
    );
  } catch (error) {
    outcome?.cancel();
    // Two deliveries with one key at the same moment: the one that lost answers with the winner's run.
    if (IdempotencyKeyTaken.isInstance(error)) {
      const earlier = await runOfDelivery(node.hookId, error.idempotencyKey, studio.database);
      if (earlier) return answerForRun(studio, node, earlier, request, cors, { duplicate: true });
    }
    throw error;
  }
  if (!outcome) return reply(202, runReference(runId, "running", request), cors);
  return replyWithOutcome(node, runId, await outcome.result, request, cors);
}

/** How a run stood when the answer was due. */
type Outcome = { kind: "succeeded"; output: unknown } | { kind: "failed" | "cancelled"; error: string | null } | { kind: "waiting" | "timeout" };

/** Waits for the run's end, its first wait for a person, or the timeout. */
function awaitOutcome(studio: Studio, runId: string, timeoutMs: number): { result: Promise<Outcome>; cancel: () => void } {
  let settle!: (outcome: Outcome) => void;
  const result = new Promise<Outcome>((resolve) => (settle = resolve));
  const finish = (outcome: Outcome) => {
    clearTimeout(timer);
    unsubscribe();
    settle(outcome);
  };
  const unsubscribe = studio.bus.subscribe(runId, (event: RunEvent) => {
    if (event.type === "run-succeeded") finish({ kind: "succeeded", output: event.payload.output });
    else if (event.type === "run-failed") finish({ kind: "failed", error: event.payload.error });
    else if (event.type === "run-cancelled") finish({ kind: "cancelled", error: event.payload.error });
    else if (event.type === "run-awaiting-input") finish({ kind: "waiting" });
  });
  const timer = setTimeout(() => finish({ kind: "timeout" }), timeoutMs);
  return { result, cancel: () => finish({ kind: "timeout" }) };
}

/** The answer for a run an earlier delivery with the same key started. */
async function answerForRun(studio: Studio, node: WebhookNode, runId: string, request: HookRequest, cors: Record<string, string>, extra: { duplicate: true }): Promise<HookReply> {
  if (node.respond === "at-once") {
    const stored = await runOutcome(runId, studio.database);
    return reply(200, { ...runReference(runId, stored?.status ?? "running", request), ...extra }, cors);
  }
  const outcome = awaitOutcome(studio, runId, node.timeoutSeconds * 1000);
  // Subscribed first, then read: a run that finished before the subscription is seen in the store.
  const stored = await runOutcome(runId, studio.database);
  if (stored && stored.status !== "running") {
    outcome.cancel();
    const now: Outcome =
      stored.status === "succeeded" ? { kind: "succeeded", output: stored.output } : stored.status === "awaiting_input" ? { kind: "waiting" } : { kind: stored.status, error: stored.error };
    return replyWithOutcome(node, runId, now, request, cors);
  }
  return replyWithOutcome(node, runId, await outcome.result, request, cors);
}

function replyWithOutcome(node: WebhookNode, runId: string, outcome: Outcome, request: HookRequest, cors: Record<string, string>): HookReply {
  switch (outcome.kind) {
    case "succeeded":
      return outputReply(node, outcome.output, { ...cors, "x-run-id": runId });
    case "failed":
    case "cancelled":
      // The workflow's own failure, not the studio's: 500 says the request was taken and the work did not succeed.
      return reply(500, { ...runReference(runId, outcome.kind, request), error: outcome.error ?? `The run ${outcome.kind === "failed" ? "failed" : "was cancelled"}.` }, cors);
    case "waiting":
      return reply(202, { ...runReference(runId, "awaiting_input", request), message: "The run waits for a person's approval in the studio's inbox." }, cors);
    case "timeout":
      return reply(202, { ...runReference(runId, "running", request), message: `The run was still going after ${node.timeoutSeconds} s; follow it at its address.` }, cors);
  }
}

/** A finished run's output as the answer's body, in the webhook's response type. */
function outputReply(node: WebhookNode, output: unknown, headers: Record<string, string>): HookReply {
  const type = node.responseType === "auto" ? (typeof output === "string" ? "text" : "json") : node.responseType;
  const contentType = type === "json" ? "application/json; charset=utf-8" : type === "html" ? "text/html; charset=utf-8" : "text/plain; charset=utf-8";
  const body = type === "json" ? JSON.stringify(output ?? null) : asText(output);
  return { status: node.responseStatus, headers: { ...securityHeaders(), ...headers, "content-type": contentType, "cache-control": "no-store" }, body };
}

function runReference(runId: string, status: string, request: HookRequest): { runId: string; status: string; url: string } {
  const host = request.headers.host;
  return { runId, status, url: host ? `http://${host}/runs/${runId}` : `/runs/${runId}` };
}

/** A refusal that counts against the webhook (its body is never stored). */
async function rejected(studio: Studio, webhook: LiveWebhook, status: 401 | 403 | 413 | 503, message: string): Promise<HookReply> {
  await countRejection(webhook.path, studio.database);
  return reply(status, { error: message });
}

/** Request values for typed run inputs: a number or boolean from a form or query arrives as text (converted by the inputs' rules); an object for a text input becomes JSON. */
function coerceToFields(inputs: Record<string, unknown>, fields: ReturnType<typeof inputFieldsOf>): Record<string, unknown> {
  const types = new Map(fields.map((field) => [field.name, field.type]));
  const coerced: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(inputs)) {
    const type = types.get(name);
    coerced[name] = (type === "string" || type === "text") && typeof value !== "string" ? asText(value) : value;
  }
  return coerced;
}

function sameOrigin(allowed: string, origin: string): boolean {
  try {
    return new URL(allowed).origin === new URL(origin).origin;
  } catch {
    return false;
  }
}

function jsonHeaders(): Record<string, string> {
  return { ...securityHeaders(), "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };
}

function reply(status: number, body: Record<string, unknown>, extraHeaders: Record<string, string> = {}): HookReply {
  return { status, headers: { ...jsonHeaders(), ...extraHeaders }, body: JSON.stringify(body) };
}
