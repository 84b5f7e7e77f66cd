import { parseSecretReference } from "@/lib/tools/contracts";
import { lookUpSecret, secretsOfWorkflow } from "@/lib/tools/secrets";
import type { RunEvent } from "@/lib/contracts/run-event";
import { countRejection, findLiveWebhook, runOfDelivery, type LiveWebhook } from "@/lib/persistence/publishing";
import { IdempotencyKeyTaken, runOutcome } from "@/lib/persistence/run-queries";
import { newId } from "@/lib/persistence/ids";
import { claimTestListen, findListeningWebhook, type ListeningWebhook } from "@/lib/persistence/webhook-test-listens";
import { asText } from "@/lib/workflow/templates";
import { inputFieldsOf, runInputsSchema } from "@/lib/workflow/run-inputs";
import { HOOK_PREFIXES, type HookAddress, type WebhookNode } from "@/nodes/webhook/definition";
import { headersReadBy, inputsFromRequest, type CapturedRequest } from "@/nodes/webhook/request-mapping";
import { hostRefusal } from "../access/addressing";
import { securityHeaders } from "../access/security-headers";
import { toApiIssues } from "../http";
import { validateForRun } from "../run-validation";
import type { Studio } from "../studio-types";
import { refuseDelivery } from "./authentication";
import { RateLimiter } from "./rate-limit";
import { traceparentDetail } from "@/lib/observability/trace-context";
import { captureRequest, parseBody, type HookReply, type HookRequest } from "./request";
import { inspectionCapture, settleTestListen } from "./test-capture";

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
 *
 * A delivery to the test address (/hooks-test/…) passes the same checks
 * against the listened-to draft's node, and only while an editor listens
 * there: it is captured for that editor (secrets masked), ends the listen,
 * and runs the draft; no idempotency, and refusals are not counted against
 * the live webhook.
 */

const NOBODY_LISTENS = "Nobody listens at this test address: press “Listen for a test delivery” in the webhook's inspector, then send it again.";

const limiter = new RateLimiter();

export async function deliver(studio: Studio, request: HookRequest, address: HookAddress = "live"): Promise<HookReply> {
  const refusedHost = hostRefusal(request.headers.host ?? null);
  if (refusedHost) return reply(refusedHost.status, { error: refusedHost.message });
  const test = address === "test";
  const listening: ListeningWebhook | null = test && request.path !== "" ? await findListeningWebhook(request.path, studio.database) : null;
  const webhook: LiveWebhook | null = test ? listening : request.path === "" ? null : await findLiveWebhook(request.path, studio.database);
  const node = webhook?.definition.nodes.find((each): each is WebhookNode => each.id === webhook.nodeId && each.kind === "webhook");
  if (!webhook || !node) return reply(404, { error: test ? NOBODY_LISTENS : "There is no live webhook at this address." });
  // Test deliveries come from the person building the workflow: their refusals say what is wrong and count against nothing live.
  const rejected = (status: 401 | 403 | 413 | 503, message: string) => (test ? Promise.resolve(reply(status, { error: message })) : rejectedLive(studio, webhook, status, message));
  const prefix = HOOK_PREFIXES[address];

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
    return rejected(403, "A web page on another site may not call this webhook; add its origin to the webhook's allowed origins if it should.");
  }
  if (!node.methods.includes(request.method as WebhookNode["methods"][number])) {
    return { ...reply(405, { error: `This webhook accepts ${node.methods.join(", ")}.` }), headers: { ...jsonHeaders(), allow: node.methods.join(", ") } };
  }
  const limited = test ? `test:${webhook.path}` : webhook.path;
  if (!limiter.take(limited, node.ratePerMinute)) {
    const retry = limiter.retryAfterSeconds(limited, node.ratePerMinute);
    if (!test) await countRejection(webhook.path, studio.database);
    return { ...reply(429, { error: `This webhook accepts ${node.ratePerMinute} deliveries a minute; try again in ${retry} s.` }), headers: { ...jsonHeaders(), "retry-after": String(retry) } };
  }
  const limit = node.maxBodyKilobytes * 1024;
  const declaredLength = Number(request.headers["content-length"] ?? 0);
  const raw = declaredLength > limit ? "too-large" : await request.readBody(limit);
  if (raw === "too-large") return rejected(413, `The body is larger than this webhook's limit of ${node.maxBodyKilobytes} KB.`);

  const secretName = parseSecretReference(node.secret);
  const secret = secretName ? (await lookUpSecret(secretsOfWorkflow(studio.secrets, webhook.workflowId), secretName)).value : undefined;
  if (node.authentication !== "none" && (secret === undefined || secret === "")) {
    console.error(`[studio] webhook ${prefix}${webhook.path}: its secret ${secretName ?? "(none picked)"} is not set; deliveries are refused until it is`);
    const testProblem =
      node.authentication === "unset"
        ? "Choose how senders prove who they are (Who may call it, in the webhook's inspector), save, and listen again."
        : `The webhook's secret ${secretName ?? "(none picked)"} is not set: pick one in the webhook's inspector, or store it in Settings → Secrets.`;
    return rejected(503, test ? testProblem : "This webhook cannot check deliveries right now.");
  }
  const refusal = refuseDelivery(node, request.headers, raw, secret ?? "");
  if (refusal) return rejected(401, refusal);

  const parsed = parseBody(request.headers["content-type"], raw);
  if ("problem" in parsed) return reply(parsed.status, { error: parsed.problem });

  const keep = [...node.keepHeaders, ...headersReadBy(node.mapping)];
  const credentialHeader = node.authentication === "none" ? null : node.header;
  if (listening) {
    const capture = await inspectionCapture(studio, node, request, parsed.body);
    // One delivery per listen: of two at once, the one that loses finds nobody listening.
    if (!(await claimTestListen(listening.listenId, capture, studio.database))) return reply(404, { error: NOBODY_LISTENS });
    let started: StartedDelivery;
    try {
      started = await startDeliveryRun(studio, webhook, node, request, captureRequest(request, parsed.body, keep, credentialHeader), cors, { test: true });
    } catch (error) {
      await settleTestListen(studio, listening.listenId, { problem: "The run could not start; the studio's log says why." });
      throw error;
    }
    // The editor hears of the delivery as soon as the run starts, not when it finishes.
    await settleTestListen(studio, listening.listenId, started.kind === "refused" ? { problem: started.problem } : { runId: started.runId });
    return started.kind === "refused" ? started.reply : started.answer();
  }

  const idempotencyKey = node.idempotencyHeader ? request.headers[node.idempotencyHeader.toLowerCase()]?.trim() : undefined;
  if (idempotencyKey !== undefined && (idempotencyKey === "" || idempotencyKey.length > 200)) {
    return reply(400, { error: `The ${node.idempotencyHeader} header must hold 1 to 200 characters.` });
  }
  if (idempotencyKey) {
    const earlier = await runOfDelivery(node.hookId, idempotencyKey, studio.database);
    if (earlier) return answerForRun(studio, node, earlier, request, cors, { duplicate: true });
  }
  try {
    const started = await startDeliveryRun(studio, webhook, node, request, captureRequest(request, parsed.body, keep, credentialHeader), cors, { test: false, idempotencyKey });
    return started.kind === "refused" ? started.reply : await started.answer();
  } catch (error) {
    // Two deliveries with one key at the same moment: the one that lost answers with the winner's run.
    if (IdempotencyKeyTaken.isInstance(error)) {
      const earlier = await runOfDelivery(node.hookId, error.idempotencyKey, studio.database);
      if (earlier) return answerForRun(studio, node, earlier, request, cors, { duplicate: true });
    }
    throw error;
  }
}

/** A delivery's run: refused before it started (the answer, and why in words), or started (its id, and the answer the node's respond setting asks for). */
type StartedDelivery = { kind: "refused"; reply: HookReply; problem: string } | { kind: "started"; runId: string; answer: () => Promise<HookReply> };

/** Turns the request into the run's inputs through the node's mapping, checks the version can run, and starts it. */
async function startDeliveryRun(
  studio: Studio,
  webhook: LiveWebhook,
  node: WebhookNode,
  request: HookRequest,
  captured: CapturedRequest,
  cors: Record<string, string>,
  options: { test: boolean; idempotencyKey?: string },
): Promise<StartedDelivery> {
  const fields = inputFieldsOf(webhook.definition);
  const inputs = runInputsSchema(fields).safeParse(coerceToFields(inputsFromRequest(captured, node.mapping), fields));
  if (!inputs.success) {
    const issues = toApiIssues(inputs.error).map((issue) => ({ ...issue, path: `inputs.${issue.path}` }));
    const problem = `The delivery does not give the run's inputs: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ")}`;
    return { kind: "refused", problem, reply: reply(422, { error: problem, issues }, cors) };
  }
  const validation = await validateForRun(webhook.versionId, webhook.definition, { pool: studio.pool(), secrets: secretsOfWorkflow(studio.secrets, webhook.workflowId) });
  if (!validation.valid) {
    const problems = validation.problems.map((problem) => problem.message).join("; ");
    if (options.test) {
      const problem = `Version ${webhook.version} cannot run: ${problems}`;
      return { kind: "refused", problem, reply: reply(422, { error: problem }, cors) };
    }
    console.error(`[studio] webhook /hooks/${webhook.path}: the published version ${webhook.version} of "${webhook.workflowName}" cannot run: ${problems}`);
    return { kind: "refused", problem: problems, reply: reply(503, { error: "The workflow behind this webhook cannot run right now; its owner can see why in the studio." }, cors) };
  }

  const runId = newId();
  const { idempotencyKey } = options;
  // Listening before the run starts: a quick run may finish before start() returns.
  const outcome = node.respond === "when-finished" ? awaitOutcome(studio, runId, node.timeoutSeconds * 1000) : null;
  try {
    await studio.runs.start(
      {
        workflowId: webhook.workflowId,
        workflowName: webhook.workflowName,
        versionId: webhook.versionId,
        version: webhook.version,
        latestVersion: webhook.latestVersion,
        definition: webhook.definition,
      },
      inputs.data,
      {
        runId,
        trigger: {
          kind: "webhook",
          nodeId: node.id,
          deliveryId: idempotencyKey ?? runId,
          request: `${request.method} ${HOOK_PREFIXES[options.test ? "test" : "live"]}${webhook.path}`.slice(0, 300),
          ...(options.test ? { test: true } : {}),
          // The sender's trace goes on in the run's: its span is the run span's parent.
          ...traceparentDetail(request.headers.traceparent),
        },
        triggerPayload: captured,
        ...(idempotencyKey ? { delivery: { workflowId: webhook.workflowId, hookId: node.hookId, idempotencyKey } } : {}),
      },
    );
  } catch (error) {
    outcome?.cancel();
    throw error;
  }
  return {
    kind: "started",
    runId,
    answer: async () => (outcome ? replyWithOutcome(node, runId, await outcome.result, request, cors) : reply(202, runReference(runId, "running", request), cors)),
  };
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

/** A refusal that counts against the live webhook (its body is never stored). */
async function rejectedLive(studio: Studio, webhook: LiveWebhook, status: 401 | 403 | 413 | 503, message: string): Promise<HookReply> {
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
