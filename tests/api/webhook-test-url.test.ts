import { beforeAll, describe, expect, it } from "vitest";
import { WebhookTestListenSchema, WebhookTestResultSchema } from "@/lib/contracts/webhook-test";
import { ApiClient, conform, type Json } from "./api-client";
import { edge } from "./fixtures";
import { rawRequest, type RawResponse } from "./raw-http";
import { connectEventStream, type SseConnection } from "./sse-client";
import { setupStudioServer } from "./studio-server";

/**
 * A webhook's test address (/hooks-test/…) through the real server: it answers
 * only while an editor listens on the node, captures one delivery for that
 * editor with the credentials masked, and runs the listened-to draft rather
 * than the published version. Also: runs a webhook starts reach the change
 * feed the runs list follows.
 */

const server = setupStudioServer();
let api: ApiClient;
const TOKEN = "token-for-the-test-url";
const MASK = "••••••";

beforeAll(async () => {
  api = server.client();
  await api.expect(201, "POST", "/api/secrets", { name: "TEST_URL_TOKEN", value: TOKEN });
});


let counter = 0;
function hookId(): string {
  counter += 1;
  return `testurl${String(counter).padStart(4, "0")}${Math.random().toString(36).slice(2, 12)}`;
}

/** Run inputs (name) and a header-token webhook → output; `output` is the output node's value. */
function definition(name: string, hook: string, output: string, webhook: Record<string, unknown> = {}): Json {
  return {
    name,
    nodes: [
      { id: "in", kind: "input", fields: [{ name: "name", type: "string", required: false, default: "nobody" }] },
      { id: "hook", kind: "webhook", hookId: hook, authentication: "header-token", secret: "${TEST_URL_TOKEN}", header: "X-Hook-Token", mapping: [{ input: "name", from: "body.user.name" }], ...webhook },
      { id: "out", kind: "output", value: output },
    ],
    edges: [edge("hook", "out"), edge("in", "out")],
  };
}

const testUrl = (hook: string) => `${server.url}/hooks-test/${hook}`;
const listenPath = (workflowId: string, nodeId = "hook") => `/api/workflows/${workflowId}/webhooks/${nodeId}/listen`;

function deliver(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(url, { method: "POST", body, headers: { "x-hook-token": TOKEN, ...headers } });
}

/** Listens on the node of `version` and follows the listen's stream, past its first event (`listening`). */
async function listen(workflowId: string, version: number, seconds?: number): Promise<{ listenId: string; stream: SseConnection }> {
  const { listen } = await api.expect(201, "POST", listenPath(workflowId), { version, ...(seconds ? { seconds } : {}) });
  conform(WebhookTestListenSchema, listen, "the listen");
  const stream = await connectEventStream(`${server.url}${listenPath(workflowId)}?listen=${listen.listenId}`, { token: server.token });
  expect(stream.status).toBe(200);
  const first = await stream.next();
  expect(first?.event).toBe("listening");
  expect(JSON.parse(first!.data)).toMatchObject({ listenId: listen.listenId, version, path: expect.any(String) });
  return { listenId: listen.listenId, stream };
}

describe("the webhook test address", () => {
  it("captures one delivery for the listening editor, secrets masked, and runs the draft, not the published version", async () => {
    const hook = hookId();
    const { id } = await api.createWorkflow(definition("Test URL", hook, "published: {{ inputs.name }}"));
    await api.expect(200, "POST", `/api/workflows/${id}/publish`, {});
    // Nobody listens: the test address is 404 although the live one answers.
    const unheard = await deliver(testUrl(hook), { user: { name: "Ada" } });
    expect(unheard.status).toBe(404);
    expect(JSON.parse(unheard.text).error).toMatch(/Listen for a test delivery/);
    expect((await deliver(`${server.url}/hooks/${hook}`, { user: { name: "Ada" } })).text).toBe("published: Ada");

    // A draft saved after publishing is what the test address runs.
    const saved = await api.expect(200, "PUT", `/api/workflows/${id}`, definition("Test URL", hook, "draft: {{ inputs.name }}"));
    const draftVersion = saved.workflow.latestVersion as number;
    expect(draftVersion).toBe(2);
    const { stream } = await listen(id, draftVersion);

    const answer = await deliver(`${testUrl(hook)}?page=2&token=${TOKEN}`, { user: { name: "Grace", note: `pasted ${TOKEN}` } }, {
      authorization: "Basic dXNlcjpwYXNz",
      cookie: "studio_session=abc",
      "x-forwarded-secret": TOKEN,
      "x-event": "signup",
    });
    // The answer follows the node's respond setting (when-finished: the run's output).
    expect(answer.status).toBe(200);
    expect(answer.text).toBe("draft: Grace");

    const captured = await stream.next();
    expect(captured?.event).toBe("captured");
    const result = JSON.parse(captured!.data);
    conform(WebhookTestResultSchema, result, "the captured delivery");
    expect(result.problem).toBeNull();
    expect(result.capture).toMatchObject({ method: "POST", path: hook, body: { user: { name: "Grace", note: `pasted ${MASK}` } }, query: { page: "2", token: MASK } });
    expect(result.capture.headers).toMatchObject({ "x-hook-token": MASK, authorization: MASK, cookie: MASK, "x-forwarded-secret": MASK, "x-event": "signup" });
    expect(captured!.data).not.toContain(TOKEN);
    // One delivery per listen: the stream ends with it.
    expect(await stream.next()).toBeNull();

    const run = await api.getRun(result.runId);
    expect(run.version).toBe(draftVersion);
    expect(run.trigger).toMatchObject({ kind: "webhook", nodeId: "hook", test: true, request: `POST /hooks-test/${hook}` });
    expect(run.output).toBe("draft: Grace");

    // The listen is over: the next test delivery is 404 and starts nothing; the live address still runs the published version.
    const again = await deliver(testUrl(hook), { user: { name: "Linus" } });
    expect(again.status).toBe(404);
    expect((await deliver(`${server.url}/hooks/${hook}`, { user: { name: "Linus" } })).text).toBe("published: Linus");
    const runs = (await api.expect(200, "GET", `/api/runs?workflowId=${id}&trigger=webhook`)).runs as Json[];
    expect(runs.filter((each) => each.trigger.test === true).map((each) => each.id)).toEqual([result.runId]);
  });

  it("tells the listener when a delivery cannot run, and refuses a delivery without the token while still listening", async () => {
    const hook = hookId();
    const { id } = await api.createWorkflow({
      ...definition("Needs a name", hook, "{{ inputs.name }}"),
      nodes: definition("Needs a name", hook, "x").nodes.map((node: Json) => (node.id === "in" ? { ...node, fields: [{ name: "name", type: "string", required: true }] } : node)),
    });
    const { stream } = await listen(id, 1);
    // Wrong token: refused, and the listen goes on.
    expect((await deliver(testUrl(hook), { user: { name: "Ada" } }, { "x-hook-token": "wrong" })).status).toBe(401);
    const refused = await deliver(testUrl(hook), { someone: "else" });
    expect(refused.status).toBe(422);
    const captured = await stream.next();
    expect(captured?.event).toBe("captured");
    const result = JSON.parse(captured!.data);
    expect(result.runId).toBeNull();
    expect(result.problem).toMatch(/inputs\.name/);
    // Captured anyway, so a person can map the field the run missed.
    expect(result.capture.body).toEqual({ someone: "else" });
    expect((await api.expect(200, "GET", `/api/runs?workflowId=${id}`)).runs).toEqual([]);
  });

  it("is 404 once the listen expired or was stopped", async () => {
    const hook = hookId();
    const { id } = await api.createWorkflow(definition("Expires", hook, "{{ inputs.name }}"));
    const expiring = await listen(id, 1, 1);
    const expired = await expiring.stream.next(10_000);
    expect(expired?.event).toBe("expired");
    expect(await expiring.stream.next()).toBeNull();
    expect((await deliver(testUrl(hook), { user: { name: "Ada" } })).status).toBe(404);

    const stopping = await listen(id, 1);
    expect(await api.expect(200, "DELETE", `${listenPath(id)}?listen=${stopping.listenId}`)).toEqual({ stopped: true });
    expect((await stopping.stream.next())?.event).toBe("stopped");
    expect((await deliver(testUrl(hook), { user: { name: "Ada" } })).status).toBe(404);

    // Listening again replaces the earlier listen of the same node: its stream is told, the new one takes the delivery.
    const first = await listen(id, 1);
    const second = await listen(id, 1);
    expect((await first.stream.next())?.event).toBe("stopped");
    expect((await deliver(testUrl(hook), { user: { name: "Ada" } })).text).toBe("Ada");
    expect((await second.stream.next())?.event).toBe("captured");
    expect((await api.expect(200, "GET", `/api/runs?workflowId=${id}`)).runs).toHaveLength(1);
  });

  it("needs a credential to listen (401), refuses other sites' pages (403), names bad fields (422) and unknown nodes (404)", async () => {
    const hook = hookId();
    const { id } = await api.createWorkflow(definition("Guarded", hook, "x"));
    const anonymous = new ApiClient(server.url);
    expect((await anonymous.post(listenPath(id), { version: 1 })).status).toBe(401);
    expect((await anonymous.get(`${listenPath(id)}?listen=whatever`)).status).toBe(401);
    const foreign = await api.post(listenPath(id), { version: 1 }, { headers: { origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    const bad = await api.post(listenPath(id), { version: "latest", seconds: 9999 });
    expect(bad.status).toBe(422);
    expect(bad.body.issues.map((issue: Json) => issue.path).sort()).toEqual(["seconds", "version"]);
    expect((await api.post(listenPath(id, "out"), { version: 1 })).status).toBe(404);
    expect((await api.post(listenPath(id), { version: 7 })).status).toBe(404);
    expect((await api.post(listenPath("no-such-workflow"), { version: 1 })).status).toBe(404);
    // Nothing listened: still 404 at the test address.
    expect((await deliver(testUrl(hook), {})).status).toBe(404);
  });
});

describe("the runs list's change feed", () => {
  it("hears of a run a webhook started", async () => {
    const hook = hookId();
    const { id } = await api.createWorkflow(definition("Feed", hook, "{{ inputs.name }}", { respond: "at-once" }));
    await api.expect(200, "POST", `/api/workflows/${id}/publish`, {});
    const feed = await connectEventStream(`${server.url}/api/events`, { token: server.token });
    try {
      expect((await feed.next())?.event).toBe("pending-approvals");
      const accepted = await deliver(`${server.url}/hooks/${hook}`, { user: { name: "Ada" } });
      expect(accepted.status).toBe(202);
      const { runId } = JSON.parse(accepted.text);
      const heard: Json[] = [];
      while (!heard.some((change) => change.runId === runId && change.type === "run-started")) {
        const message = await feed.next();
        if (message?.event === "change") heard.push(JSON.parse(message.data));
      }
      expect(heard.find((change) => change.runId === runId)).toMatchObject({ type: "run-started" });
    } finally {
      feed.close();
    }
  });
});
