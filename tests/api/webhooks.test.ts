import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signDelivery } from "@/lib/server/hooks/authentication";
import { RunSummarySchema } from "@/lib/contracts/run";
import { waitFor, conform, type ApiClient, type Json } from "./api-client";
import { edge, removeWorkFolders, workFolder, writeFileWorkflow } from "./fixtures";
import { rawRequest, type RawResponse } from "./raw-http";
import { setupStudioServer } from "./studio-server";

/**
 * Webhook triggers through the real server: a delivery reaches /hooks/… the
 * way a Git host or a payment provider would send it, and only the published
 * version of a workflow answers.
 */

const server = setupStudioServer({ env: { STUDIO_PASSWORD: "webhooks-test-password" } });
let api: ApiClient;

beforeAll(async () => {
  api = server.client();
  await api.expect(201, "POST", "/api/secrets", { name: "HOOK_TOKEN", value: "token-for-the-test" });
  await api.expect(201, "POST", "/api/secrets", { name: "HOOK_SIGNING", value: "signing-secret-for-the-test" });
});

afterAll(() => {
  removeWorkFolders();
});

let hookCounter = 0;
/** A fresh hook id per workflow (each must be 16+ characters and unique across live webhooks). */
function hookId(): string {
  hookCounter += 1;
  return `testhook${String(hookCounter).padStart(4, "0")}${Math.random().toString(36).slice(2, 10)}`;
}

interface HookWorkflowOptions {
  webhook?: Record<string, unknown>;
  /** The output node's value. */
  output?: string;
  fields?: Json[];
  /** Extra nodes between the webhook and the output. */
  middle?: Json[];
  extra?: Record<string, unknown>;
}

/** Webhook → (middle…) → output, with run inputs beside it (the manual trigger). */
function hookWorkflow(name: string, options: HookWorkflowOptions = {}) {
  const webhook = { id: "hook", kind: "webhook", hookId: hookId(), authentication: "none", ...options.webhook };
  const middle = options.middle ?? [];
  const chainIds = ["hook", ...middle.map((node) => node.id as string), "out"];
  return {
    name,
    ...options.extra,
    nodes: [
      { id: "in", kind: "input", fields: options.fields ?? [] },
      webhook,
      ...middle,
      { id: "out", kind: "output", value: options.output ?? "{{ inputs.name }}" },
    ],
    edges: [...chainIds.slice(1).map((id, index) => edge(chainIds[index]!, id)), edge("in", "out")],
  };
}

async function createAndPublish(definition: Json): Promise<{ id: string; url: string }> {
  const { id } = await api.createWorkflow(definition);
  await api.expect(200, "POST", `/api/workflows/${id}/publish`, {});
  const hook = definition.nodes.find((node: Json) => node.kind === "webhook");
  return { id, url: `${server.url}/hooks/${hook.path || hook.hookId}` };
}

function deliver(url: string, body: unknown, headers: Record<string, string> = {}, method = "POST"): Promise<RawResponse> {
  return rawRequest(url, { method, body, headers });
}

async function runsOf(workflowId: string): Promise<Json[]> {
  return await api.everyRow("runs", `workflowId=${workflowId}`);
}

const NAME_FIELD = [{ name: "name", type: "string", required: true }];
const NAME_MAPPING = [{ input: "name", from: "body.name" }];

describe("webhook deliveries", () => {
  it("answers with the run's output when it finishes, records the start and runs only from the webhook", async () => {
    const { id, url } = await createAndPublish(hookWorkflow("Greeter", { fields: NAME_FIELD, webhook: { mapping: NAME_MAPPING, keepHeaders: ["x-event"] }, output: "Hello, {{ inputs.name }}!" }));
    // STUDIO_PASSWORD protects everything but /hooks/: no credential is sent here.
    const answer = await deliver(url, { name: "Ada" }, { "x-event": "greeting", "x-private": "dropped" });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe("Hello, Ada!");
    expect(answer.headers["content-type"]).toMatch(/^text\/plain/);
    const runId = answer.headers["x-run-id"] as string;
    const run = await api.expect(200, "GET", `/api/runs/${runId}`);
    expect(run.run.status).toBe("succeeded");
    expect(run.run.trigger).toMatchObject({ kind: "webhook", nodeId: "hook", request: expect.stringMatching(/^POST \/hooks\//) });
    const steps = Object.fromEntries(run.run.steps.map((step: Json) => [step.nodeId, step]));
    // The run started at the webhook; the run inputs node (the manual trigger) was skipped.
    expect(steps.in.status).toBe("skipped");
    expect(steps.hook.status).toBe("succeeded");
    expect(steps.hook.output.data).toMatchObject({ method: "POST", body: { name: "Ada" }, headers: { "x-event": "greeting" } });
    expect(steps.hook.output.data.headers).not.toHaveProperty("x-private");
    // The runs list says what started it, and filters by it.
    const webhookRuns = (await api.expect(200, "GET", `/api/runs?workflowId=${id}&trigger=webhook`)).runs;
    expect(webhookRuns.map((each: Json) => each.id)).toEqual([runId]);
    conform(RunSummarySchema, webhookRuns[0], "a webhook run in the list");
    expect((await api.expect(200, "GET", `/api/runs?workflowId=${id}&trigger=person`)).runs).toEqual([]);
  });

  it("answers JSON for structured output, 202 at once when asked, and a manual run skips the webhook", async () => {
    const structured = await createAndPublish(hookWorkflow("Echo", { output: "{{ nodes.hook.data.body }}" }));
    const echoed = await deliver(structured.url, { a: [1, 2] });
    expect(echoed.status).toBe(200);
    expect(echoed.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(echoed.text)).toEqual({ a: [1, 2] });

    const atOnce = await createAndPublish(hookWorkflow("At once", { webhook: { respond: "at-once" }, output: "done" }));
    const accepted = await deliver(atOnce.url, { x: 1 });
    expect(accepted.status).toBe(202);
    const body = JSON.parse(accepted.text);
    expect(body).toMatchObject({ runId: expect.any(String), url: expect.stringContaining(`/runs/${body.runId}`) });
    await waitFor(async () => ((await api.expect(200, "GET", `/api/runs/${body.runId}`)).run.status === "succeeded" ? true : undefined), { what: "the at-once run finishes" });

    // The Run button starts at the run inputs node: the webhook is skipped, and what only it leads to.
    const manual = await api.expect(201, "POST", `/api/workflows/${structured.id}/runs`, { inputs: {} });
    const finished = await waitFor(async () => {
      const run = (await api.expect(200, "GET", `/api/runs/${manual.run.id}`)).run;
      return run.status === "running" ? undefined : run;
    }, { what: "the manual run finishes" });
    expect(finished.trigger).toEqual({ kind: "person", nodeId: null });
    expect(finished.steps.find((step: Json) => step.nodeId === "hook").status).toBe("skipped");
  });

  it("refuses missing inputs with 422 naming each field and starts nothing", async () => {
    const { id, url } = await createAndPublish(
      hookWorkflow("Needs a name", { fields: [...NAME_FIELD, { name: "count", type: "number", required: true }], webhook: { mapping: [...NAME_MAPPING, { input: "count", from: "query.count" }] } }),
    );
    const refused = await deliver(url, { nothing: true });
    expect(refused.status).toBe(422);
    const body = JSON.parse(refused.text);
    expect(body.issues.map((issue: Json) => issue.path)).toEqual(expect.arrayContaining(["inputs.name", "inputs.count"]));
    expect(await runsOf(id)).toEqual([]);
    // A form body and a query string fill the same inputs; the number arrives as text and is converted.
    const fromForm = await rawRequest(`${url}?count=3`, { method: "POST", body: "name=Grace", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(fromForm.status).toBe(200);
    expect(fromForm.text).toBe("Grace");
  });

  it("is live only once published: a saved draft changes nothing until it is published, and unpublishing stops it", async () => {
    const definition = hookWorkflow("Drafts", { output: "first" });
    const { id } = await api.createWorkflow(definition);
    const url = `${server.url}/hooks/${definition.nodes[1]!.hookId}`;
    expect((await deliver(url, {})).status).toBe(404);
    await api.expect(200, "POST", `/api/workflows/${id}/publish`, {});
    expect((await deliver(url, {})).text).toBe("first");

    await api.expect(200, "PUT", `/api/workflows/${id}`, { ...definition, nodes: definition.nodes.map((node: Json) => (node.id === "out" ? { ...node, value: "second" } : node)) });
    expect((await deliver(url, {})).text).toBe("first");
    const published = await api.expect(200, "POST", `/api/workflows/${id}/publish`, {});
    expect(published.published).toMatchObject({ publishedVersion: 2, webhooks: [{ nodeId: "hook", path: definition.nodes[1]!.hookId }] });
    expect((await deliver(url, {})).text).toBe("second");
    const listed = (await api.expect(200, "GET", "/api/workflows")).workflows.find((workflow: Json) => workflow.id === id);
    expect(listed.publishedVersion).toBe(2);

    await api.expect(200, "DELETE", `/api/workflows/${id}/publish`);
    const gone = await deliver(url, {});
    expect(gone.status).toBe(404);
    // Unknown and unpublished look the same: nothing about the studio leaks.
    expect(gone.text).toBe((await deliver(`${server.url}/hooks/no-such-hook-anywhere`, {})).text);

    // The security log names the workflow each time, so "published a workflow" is never the whole story.
    const logged = (await api.expect(200, "GET", "/api/audit")).entries.filter((entry: Json) => entry.target === id);
    expect(logged.map((entry: Json) => [entry.action, entry.detail?.workflow])).toEqual(
      expect.arrayContaining([
        ["workflow-published", definition.name],
        ["workflow-unpublished", definition.name],
      ]),
    );
    // And who did it, by id.
    const me = (await api.expect(200, "GET", "/api/me")).person.id;
    expect(logged.filter((entry: Json) => entry.action.startsWith("workflow-")).every((entry: Json) => entry.actorId === me)).toBe(true);
  });

  it("gives a copy and an import their own addresses, so neither answers at the original's URL", async () => {
    const definition = hookWorkflow("Original", { output: "original" });
    const original = await createAndPublish(definition);
    const copy = await api.expect(201, "POST", `/api/workflows/${original.id}/duplicate`, {});
    const imported = await api.expect(201, "POST", "/api/workflows/import", definition);
    const originalHook = definition.nodes[1]!.hookId;
    for (const workflow of [copy.workflow, imported.workflow]) {
      const hook = workflow.definition.nodes.find((node: Json) => node.kind === "webhook");
      expect(hook.hookId).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(hook.hookId).not.toBe(originalHook);
      // Both can go live beside the original.
      await api.expect(200, "POST", `/api/workflows/${workflow.id}/publish`, {});
    }
    expect((await deliver(original.url, {})).text).toBe("original");
  });

  it("refuses to publish a version that cannot run (422), or whose path another live workflow holds (409)", async () => {
    const unset = hookWorkflow("No authentication chosen", { webhook: { authentication: "unset" } });
    const { id } = await api.createWorkflow(unset);
    const refused = await api.post(`/api/workflows/${id}/publish`, {});
    expect(refused.status).toBe(422);
    expect(refused.body.problems).toContainEqual(expect.objectContaining({ nodeId: "hook", field: "authentication" }));

    await createAndPublish(hookWorkflow("Owner of a path", { webhook: { path: "shared/path" }, output: "mine" }));
    const second = await api.createWorkflow(hookWorkflow("Wants the path", { webhook: { path: "shared/path" }, output: "mine too" }));
    const clash = await api.post(`/api/workflows/${second.id}/publish`, {});
    expect(clash.status).toBe(409);
    expect(clash.body.error).toMatch(/\/hooks\/shared\/path/);
  });
});

describe("webhook authentication", () => {
  it("a header token: right passes, wrong or missing is 401, starts nothing and stores nothing but a count", async () => {
    const { id, url } = await createAndPublish(
      hookWorkflow("Token", { webhook: { authentication: "header-token", secret: "${HOOK_TOKEN}", header: "Authorization", prefix: "Bearer " }, output: "ok" }),
    );
    expect((await deliver(url, { planted: "wrong-token-body" }, { authorization: "Bearer nope" })).status).toBe(401);
    expect((await deliver(url, { planted: "no-token-body" })).status).toBe(401);
    expect(await runsOf(id)).toEqual([]);
    const accepted = await deliver(url, {}, { authorization: "Bearer token-for-the-test" });
    expect(accepted.status).toBe(200);
    expect(accepted.text).toBe("ok");
    const database = server.openDatabase();
    try {
      const endpoint = await database.webhookEndpoint.findFirst({ where: { workflowId: id } });
      expect(endpoint?.rejections).toBe(2);
    } finally {
      await database.$disconnect();
    }
    // The token never travels on: the webhook's result leaves the credential's header out.
    const run = (await runsOf(id))[0];
    const detail = await api.expect(200, "GET", `/api/runs/${run.id}`);
    expect(JSON.stringify(detail)).not.toContain("token-for-the-test");
  });

  it("an HMAC signature over the body (GitHub's scheme): right passes, a changed body or wrong key is 401", async () => {
    const settings = { authentication: "hmac-sha256", secret: "${HOOK_SIGNING}", header: "X-Hub-Signature-256", prefix: "sha256=", signatureStyle: "body" };
    const { id, url } = await createAndPublish(hookWorkflow("Signed", { webhook: settings, output: "signed" }));
    const body = JSON.stringify({ action: "opened" });
    const signature = signDelivery({ prefix: "sha256=", signatureStyle: "body" }, "signing-secret-for-the-test", body);
    const good = await rawRequest(url, { method: "POST", body, headers: { "content-type": "application/json", "x-hub-signature-256": signature } });
    expect(good.status).toBe(200);
    const tampered = await rawRequest(url, { method: "POST", body: body.replace("opened", "closed"), headers: { "content-type": "application/json", "x-hub-signature-256": signature } });
    expect(tampered.status).toBe(401);
    const wrongKey = signDelivery({ prefix: "sha256=", signatureStyle: "body" }, "another-secret", body);
    expect((await rawRequest(url, { method: "POST", body, headers: { "content-type": "application/json", "x-hub-signature-256": wrongKey } })).status).toBe(401);
    expect(await runsOf(id)).toHaveLength(1);
  });

  it("a timestamped signature (Stripe's scheme): refused when replayed outside the tolerance window", async () => {
    const settings = { authentication: "hmac-sha256", secret: "${HOOK_SIGNING}", header: "Stripe-Signature", signatureStyle: "timestamped", toleranceSeconds: 60 };
    const { id, url } = await createAndPublish(hookWorkflow("Stripe-style", { webhook: settings, output: "paid" }));
    const body = JSON.stringify({ type: "payment_intent.succeeded" });
    const now = Math.floor(Date.now() / 1000);
    const fresh = signDelivery({ prefix: "", signatureStyle: "timestamped" }, "signing-secret-for-the-test", body, now);
    expect((await rawRequest(url, { method: "POST", body, headers: { "content-type": "application/json", "stripe-signature": fresh } })).status).toBe(200);
    const old = signDelivery({ prefix: "", signatureStyle: "timestamped" }, "signing-secret-for-the-test", body, now - 600);
    const replayed = await rawRequest(url, { method: "POST", body, headers: { "content-type": "application/json", "stripe-signature": old } });
    expect(replayed.status).toBe(401);
    expect(JSON.parse(replayed.text).error).toMatch(/60 s/);
    expect(await runsOf(id)).toHaveLength(1);
  });
});

describe("webhook limits and safety", () => {
  it("the same idempotency key twice starts one run and answers both with it", async () => {
    const { id, url } = await createAndPublish(hookWorkflow("Once per delivery", { webhook: { idempotencyHeader: "Idempotency-Key", respond: "at-once" }, output: "x" }));
    const first = await deliver(url, {}, { "idempotency-key": "delivery-42" });
    const [second, third] = await Promise.all([deliver(url, {}, { "idempotency-key": "delivery-42" }), deliver(url, {}, { "idempotency-key": "delivery-42" })]);
    expect(first.status).toBe(202);
    const runId = JSON.parse(first.text).runId;
    for (const again of [second, third]) {
      expect(again.status).toBe(200);
      expect(JSON.parse(again.text)).toMatchObject({ runId, duplicate: true });
    }
    expect((await deliver(url, {}, { "idempotency-key": "delivery-43" })).status).toBe(202);
    const runs = await runsOf(id);
    expect(runs).toHaveLength(2);
    expect(runs.find((run: Json) => run.id === runId).trigger.deliveryId).toBe("delivery-42");
  });

  it("a body over the limit is 413, a flood past the rate is 429, a wrong method 405: each starts nothing", async () => {
    const { id, url } = await createAndPublish(hookWorkflow("Limits", { webhook: { maxBodyKilobytes: 1, ratePerMinute: 3 }, output: "x" }));
    expect((await deliver(url, { text: "y".repeat(2000) })).status).toBe(413);
    expect((await deliver(url, {}, {}, "PUT")).status).toBe(405);
    const statuses: number[] = [];
    for (let index = 0; index < 4; index += 1) statuses.push((await deliver(url, {})).status);
    // Three a minute: the 413 took one (the rate is checked before the size), two more pass, then 429.
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(1);
    const limited = await deliver(url, {});
    expect(limited.status).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect((await runsOf(id)).length).toBe(statuses.filter((status) => status === 200).length);
  });

  it("a hostile body starts nothing and holds nothing up: nested too deep is 422 (it was a 500), a form repeating one name is read at once", async () => {
    const { id, url } = await createAndPublish(hookWorkflow("Hostile bodies", { output: "{{ nodes.hook.data.body }}" }));
    const deep = await deliver(url, "[".repeat(400_000) + "]".repeat(400_000), { "content-type": "application/json" });
    expect(deep.status).toBe(422);
    expect(JSON.parse(deep.text).error).toBe("The body nests deeper than 100 levels; flatten it.");
    expect(await runsOf(id)).toEqual([]);
    // 100,000 repeats of one name took two minutes of the event loop (past this test's 30 s), during which the
    // studio answered nobody.
    const form = Array.from({ length: 100_000 }, () => "f=1").join("&");
    const repeated = await deliver(url, form, { "content-type": "application/x-www-form-urlencoded" });
    expect(repeated.status).toBe(200);
    expect(JSON.parse(repeated.text).f).toHaveLength(100_000);
  });

  it("a page on another site cannot start a run (403) unless its origin is allowed; a foreign Host is refused", async () => {
    const { id, url } = await createAndPublish(hookWorkflow("Browser", { output: "x" }));
    const fromPage = await deliver(url, "name=x", { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "cross-site" });
    expect(fromPage.status).toBe(403);
    const rebound = await deliver(url, {}, { host: "evil.example:3000" });
    expect(rebound.status).toBe(403);
    expect(await runsOf(id)).toEqual([]);

    const allowed = await createAndPublish(hookWorkflow("Form", { webhook: { allowedOrigins: ["https://forms.example.com"] }, output: "thanks" }));
    const preflight = await rawRequest(allowed.url, { method: "OPTIONS", headers: { origin: "https://forms.example.com", "access-control-request-method": "POST" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("https://forms.example.com");
    const fromForm = await deliver(allowed.url, {}, { origin: "https://forms.example.com", "sec-fetch-site": "cross-site" });
    expect(fromForm.status).toBe(200);
    expect(fromForm.headers["access-control-allow-origin"]).toBe("https://forms.example.com");
  });

  it("a run that waits for a person answers 202 with its address instead of hanging", async () => {
    const root = workFolder();
    const write = writeFileWorkflow(root);
    const writeNode = write.nodes.find((node: Json) => node.kind === "tool");
    const { url } = await createAndPublish(
      hookWorkflow("Asks first", {
        fields: [{ name: "text", type: "string", required: true }, { name: "file", type: "string", required: true }],
        webhook: { mapping: [{ input: "text", from: "body.text" }, { input: "file", from: "body.file" }] },
        middle: [{ ...writeNode, id: "write" }],
        output: "written",
      }),
    );
    const answer = await deliver(url, { text: "hello", file: "a.txt" });
    expect(answer.status).toBe(202);
    const body = JSON.parse(answer.text);
    expect(body.status).toBe("awaiting_input");
    const run = (await api.expect(200, "GET", `/api/runs/${body.runId}`)).run;
    expect(run.approvals.length).toBe(1);
  });

  it("a failed run answers 500 with its error and address", async () => {
    const root = workFolder();
    const { url } = await createAndPublish(
      // Reading a file that is not there fails the step, and with it the run.
      hookWorkflow("Fails", { middle: [{ id: "read", kind: "tool", tool: "read_file", settings: { root }, arguments: { path: "missing.txt" } }], output: "{{ nodes.read.output }}" }),
    );
    const failed = await deliver(url, {});
    expect(failed.status).toBe(500);
    expect(JSON.parse(failed.text)).toMatchObject({ status: "failed", runId: expect.any(String), error: expect.stringMatching(/missing\.txt/) });
  });
});
