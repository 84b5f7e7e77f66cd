import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../support/otlp-receiver";
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from "../support/scripted-openai-server";
import { waitFor, type ApiClient, type Json } from "./api-client";
import { edge, removeWorkFolders, workFolder } from "./fixtures";
import { freePort, setupStudioServer } from "./studio-server";

/**
 * Runs as OpenTelemetry traces, through the built server to an OTLP receiver
 * on loopback (JSON protocol): the span tree of a run with a retry, an
 * approval, a For each and an agent step; the GenAI attributes; a caller's
 * traceparent continued on the run API and on a webhook; and no secret, input
 * or output in any span.
 */

let receiver: OtlpReceiver;
let model: ScriptedOpenAIServer;
let api: ApiClient;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  model = await startScriptedOpenAIServer();
});

const server = setupStudioServer(() => ({
  env: {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    // Exported a tenth of a second after they end, so the test waits for the spans, not for a 5 s schedule.
    OTEL_BSP_SCHEDULE_DELAY: "100",
    OTEL_SERVICE_NAME: "studio-traces-test",
  },
}));

beforeAll(() => {
  api = server.client();
});

afterAll(async () => {
  await Promise.all([receiver?.close(), model?.close()]);
  removeWorkFolders();
});

/** Values that must reach no span: a stored secret (the agent's API key), a run input, a step's output. */
const PLANTED_KEY = "sk-planted-trace-key-51c0de";
const PLANTED_INPUT = "planted-input-3b7e";
const PLANTED_OUTPUT = "planted-output-9a4f";

/** A caller's trace context, as a service in front of the studio would send it. */
function callerTrace(): { traceId: string; spanId: string; header: string } {
  const hex = (bytes: number) => [...crypto.getRandomValues(new Uint8Array(bytes))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  const traceId = hex(16);
  const spanId = hex(8);
  return { traceId, spanId, header: `00-${traceId}-${spanId}-01` };
}

/** An HTTP server whose first answer is a dropped connection (a network error, retried) and whose next ones are a JSON list. */
async function flakyListServer(): Promise<{ port: number; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const flaky = http.createServer((request, response) => {
    requests += 1;
    if (requests === 1) {
      request.socket.destroy();
      return;
    }
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify([`a-${PLANTED_OUTPUT}`, "b"]));
  });
  await new Promise<void>((resolve) => flaky.listen(0, "127.0.0.1", resolve));
  return { port: (flaky.address() as AddressInfo).port, requests: () => requests, close: () => new Promise((resolve) => flaky.close(() => resolve())) };
}

const one = (spans: ReceivedSpan[], found: (span: ReceivedSpan) => boolean, what: string): ReceivedSpan => {
  const matches = spans.filter(found);
  expect(matches, what).toHaveLength(1);
  return matches[0]!;
};

const runSpanOf = (runId: string) => (span: ReceivedSpan) => span.name.startsWith("run ") && span.attributes["studio.run.id"] === runId;

describe("traces of runs", () => {
  it("make a run one trace continuing the caller's: attempts, the retry, the approval, each item's run and the agent's model and tool calls, with no secret, input or output in any span", async () => {
    const root = workFolder("studio-traces-");
    const flaky = await flakyListServer();
    await api.expect(201, "POST", "/api/secrets", { name: "TRACE_MODEL_KEY", value: PLANTED_KEY });
    model.script({ text: "Let me look.", toolCalls: [{ name: "list_dir", arguments: { path: "." } }] }, { text: "All is in order." });
    const workflow = await api.createWorkflow({
      name: "Traced: fetch, approve, loop, ask an agent",
      mode: "default",
      guardrails: { localNetworkAllow: [`127.0.0.1:${flaky.port}`] },
      nodes: [
        { id: "in", kind: "input", fields: [{ name: "note" }] },
        { id: "fetch", kind: "tool", tool: "http", arguments: { url: `http://127.0.0.1:${flaky.port}/list` }, execution: { retry: { maxAttempts: 2, initialDelayMs: 100 } } },
        { id: "loop", kind: "foreach", list: "{{ nodes.fetch.data.json }}", concurrency: 2 },
        { id: "each", kind: "tool", tool: "list_dir", settings: { root }, arguments: { path: "." } },
        { id: "write", kind: "tool", tool: "write_file", settings: { root }, arguments: { path: "note.txt", content: "{{ inputs.note }}" } },
        { id: "agent", kind: "agent", provider: "openai_compatible", model: "scripted-model", baseUrl: model.baseUrl, apiKey: "${TRACE_MODEL_KEY}", task: "Look at the folder.", maxTurns: 5 },
        { id: "look", kind: "tool", tool: "list_dir", settings: { root } },
        { id: "out", kind: "output", value: "{{ nodes.agent.output }}" },
      ],
      edges: [
        // The write waits for its approval before the loop's items start (the items' ends each drive their run on).
        edge("in", "fetch"),
        edge("fetch", "write"),
        edge("write", "loop"),
        { id: "loop-each", source: "loop", target: "each", sourceHandle: "item" },
        { id: "loop-out", source: "loop", target: "out", sourceHandle: "done" },
        // The agent works beside them (a tool node's edge into an agent would attach it).
        edge("in", "agent"),
        edge("look", "agent"),
        edge("agent", "out"),
      ],
    });
    const caller = callerTrace();
    const started = await api.request("POST", `/api/workflows/${workflow.id}/runs`, { inputs: { note: PLANTED_INPUT } }, { headers: { traceparent: caller.header } });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const runId: string = started.body.run.id;

    const approval = await api.waitForApproval(runId, 60_000);
    expect(approval).toMatchObject({ nodeId: "write", kind: "write" });
    await api.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "once" });
    const finished = await api.waitForRun(runId, ["succeeded", "failed", "cancelled"], 60_000).catch(async (error: unknown) => {
      // Where it stands, to tell a stuck run from a slow one.
      const stuck = await api.getRun(runId);
      const steps = (stuck.steps as Json[]).map((step) => `${step.nodeId}: ${step.status} (attempt ${step.attempt})`).join(", ");
      const children = ((stuck.childRuns ?? []) as Json[]).map((child) => `${child.id}: ${child.status}`).join(", ");
      const waiting = (await api.pendingApprovals(runId)).map((each: Json) => `${each.nodeId}/${each.kind}`).join(", ");
      throw new Error(`${String(error)}\nsteps: ${steps}\nchild runs: ${children}\npending approvals: ${waiting || "none"}\nserver: ${server.logs().slice(-6000)}`);
    });
    expect(finished.status, finished.error).toBe("succeeded");
    await flaky.close();
    expect(flaky.requests()).toBe(2);
    const itemRunIds: string[] = finished.childRuns.map((child: Json) => child.id);
    expect(itemRunIds).toHaveLength(2);

    // Each run's span is exported when the run ends: the items' first, the loop's run's last.
    const spans = (await receiver.waitFor((all) => [runId, ...itemRunIds].every((id) => all.some(runSpanOf(id))))).filter(
      (span) => span.traceId === caller.traceId,
    );
    // Every span of the run and its items is in the caller's trace, and its parent is in it too (or is the caller's span).
    const ids = new Set(spans.map((span) => span.spanId));
    expect(ids.size, "each span exported once").toBe(spans.length);
    for (const span of spans) expect(span.parentSpanId === caller.spanId || ids.has(span.parentSpanId), `${span.name}'s parent`).toBe(true);

    const run = one(spans, runSpanOf(runId), "the run's span");
    expect(run.parentSpanId).toBe(caller.spanId);
    expect(run.status.code).toBe(1);
    expect(run.resource["service.name"]).toBe("studio-traces-test");
    expect(run.attributes).toMatchObject({ "studio.workflow.id": workflow.id, "studio.workflow.version": 1, "studio.run.trigger": "person", "studio.run.status": "succeeded" });

    const steps = (nodeId: string, of = run) => spans.filter((span) => span.parentSpanId === of.spanId && span.attributes["studio.node.id"] === nodeId);
    const [firstFetch, secondFetch] = steps("fetch").sort((left, right) => Number(left.attributes["studio.step.attempt"]) - Number(right.attributes["studio.step.attempt"]));
    expect(firstFetch).toMatchObject({ name: "step fetch", status: { code: 2 } });
    expect(firstFetch!.attributes).toMatchObject({ "studio.node.kind": "tool", "studio.tool.name": "http", "studio.step.attempt": 1, "studio.step.status": "retrying", "error.type": "network" });
    expect(secondFetch!.attributes).toMatchObject({ "studio.step.attempt": 2, "studio.step.status": "succeeded" });
    expect(secondFetch!.links).toEqual([{ traceId: caller.traceId, spanId: firstFetch!.spanId, attributes: { "studio.link": "previous-attempt" } }]);
    expect(secondFetch!.startMs).toBeGreaterThanOrEqual(firstFetch!.endMs);

    // Each item's run hangs under the loop's step, its own step under it.
    const [loop] = steps("loop");
    expect(loop).toMatchObject({ name: "step loop", status: { code: 1 } });
    for (const itemRunId of itemRunIds) {
      const item = one(spans, runSpanOf(itemRunId), `item run ${itemRunId}`);
      expect(item.parentSpanId).toBe(loop!.spanId);
      expect(item.attributes).toMatchObject({ "studio.run.trigger": "for-each", "studio.loop.count": 2 });
      expect(steps("each", item)).toHaveLength(1);
    }

    // The wait for a person, under the step that asked.
    const [write] = steps("write");
    const waited = one(spans, (span) => span.name === "approval write", "the approval's span");
    expect(waited.parentSpanId).toBe(write!.spanId);
    expect(waited.attributes).toMatchObject({ "studio.approval.id": approval.id, "studio.approval.status": "approved" });

    // The agent step after the GenAI conventions: a model call span per turn, a tool call span per call.
    const [agent] = steps("agent");
    expect(agent).toMatchObject({ name: "invoke_agent agent" });
    expect(agent!.attributes).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "gen_ai.provider.name": "openai_compatible", "gen_ai.request.model": "scripted-model" });
    const chats = spans.filter((span) => span.parentSpanId === agent!.spanId && span.name === "chat scripted-model");
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(chat.kind).toBe(3);
      expect(chat.attributes).toMatchObject({
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai_compatible",
        "gen_ai.request.model": "scripted-model",
        "gen_ai.usage.input_tokens": 10,
        "gen_ai.usage.output_tokens": 5,
      });
      expect(chat.endMs).toBeGreaterThanOrEqual(chat.startMs);
    }
    const toolCall = one(spans, (span) => span.parentSpanId === agent!.spanId && span.name === "execute_tool list_dir", "the agent's tool call");
    expect(toolCall.attributes).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "list_dir", "studio.tool.node_id": "look" });
    expect(toolCall.attributes["gen_ai.tool.call.id"]).toEqual(expect.any(String));

    // The key reached the model server (so it was in play), and no span, nor anything else sent to the receiver.
    expect(model.requests.some((request) => request.headers.authorization === `Bearer ${PLANTED_KEY}`)).toBe(true);
    for (const body of receiver.bodies()) {
      for (const planted of [PLANTED_KEY, PLANTED_INPUT, PLANTED_OUTPUT]) expect(body).not.toContain(planted);
    }
  });

  it("hang a called workflow's run under the Sub-workflow step that called it, in the caller's trace", async () => {
    const child = await api.createWorkflow({
      name: "Traced: called",
      nodes: [
        { id: "in", kind: "input", fields: [{ name: "who" }] },
        { id: "out", kind: "output", value: "hello {{ inputs.who }}" },
      ],
      edges: [edge("in", "out")],
    });
    await api.expect(200, "POST", `/api/workflows/${child.id}/publish`, {});
    const parent = await api.createWorkflow({
      name: "Traced: calling",
      nodes: [
        { id: "in", kind: "input", fields: [] },
        { id: "call", kind: "subworkflow", workflowId: child.id, inputs: { who: "Ada" } },
        { id: "out", kind: "output", value: "{{ nodes.call.output }}" },
      ],
      edges: [edge("in", "call"), edge("call", "out")],
    });
    const run = await api.startRun(parent.id);
    const finished = await api.waitForRun(run.id, ["succeeded", "failed", "cancelled"], 60_000);
    expect(finished.status, finished.error).toBe("succeeded");
    const childRunId: string = finished.childRuns[0].id;
    const spans = await receiver.waitFor((all) => all.some(runSpanOf(run.id)) && all.some(runSpanOf(childRunId)));
    const calling = one(spans, runSpanOf(run.id), "the calling run's span");
    const called = one(spans, runSpanOf(childRunId), "the called run's span");
    const step = one(spans, (span) => span.parentSpanId === calling.spanId && span.attributes["studio.node.id"] === "call", "the Sub-workflow step's span");
    expect(calling.parentSpanId).toBe("");
    expect(called).toMatchObject({ traceId: calling.traceId, parentSpanId: step.spanId });
    expect(called.attributes).toMatchObject({ "studio.workflow.id": child.id, "studio.run.trigger": "sub-workflow" });
  });

  it("hang an error workflow's run under the run whose failure started it", async () => {
    const handler = await api.createWorkflow({
      name: "Traced: handles failures",
      nodes: [
        { id: "in", kind: "input", fields: [{ name: "runId" }] },
        { id: "out", kind: "output", value: "handled {{ inputs.runId }}" },
      ],
      edges: [edge("in", "out")],
    });
    const port = await freePort();
    const failing = await api.createWorkflow({
      name: "Traced: fails",
      errorWorkflowId: handler.id,
      guardrails: { localNetworkAllow: [`127.0.0.1:${port}`] },
      nodes: [
        { id: "in", kind: "input", fields: [] },
        // Nothing listens there: the step fails (a network error), and with it the run.
        { id: "fetch", kind: "tool", tool: "http", arguments: { url: `http://127.0.0.1:${port}/` } },
      ],
      edges: [edge("in", "fetch")],
    });
    const run = await api.startRun(failing.id);
    expect((await api.waitForRun(run.id)).status).toBe("failed");
    const handled = await waitFor(async () => (await api.getRun(run.id)).errorWorkflowRun ?? undefined, { what: "the error workflow's run" });
    const spans = await receiver.waitFor((all) => all.some(runSpanOf(run.id)) && all.some(runSpanOf(handled.id)));
    const failed = one(spans, runSpanOf(run.id), "the failed run's span");
    expect(failed).toMatchObject({ status: { code: 2 } });
    expect(failed.attributes).toMatchObject({ "studio.run.status": "failed", "error.type": "failed" });
    expect(one(spans, runSpanOf(handled.id), "the error workflow run's span")).toMatchObject({ traceId: failed.traceId, parentSpanId: failed.spanId });
  });

  it("continue the trace of a webhook's sender, the run span under the sender's span", async () => {
    const hookId = `tracehook${Math.random().toString(36).slice(2, 12)}0000`;
    const { id } = await api.createWorkflow({
      name: "Traced: a webhook",
      nodes: [
        { id: "in", kind: "input", fields: [] },
        { id: "hook", kind: "webhook", hookId, authentication: "none" },
        { id: "out", kind: "output", value: "received" },
      ],
      edges: [edge("hook", "out"), edge("in", "out")],
    });
    await api.expect(200, "POST", `/api/workflows/${id}/publish`, {});
    const caller = callerTrace();
    const delivered = await fetch(`${server.url}/hooks/${hookId}`, {
      method: "POST",
      headers: { "content-type": "application/json", traceparent: caller.header },
      body: JSON.stringify({ hello: "world" }),
    });
    expect(delivered.status).toBeLessThan(300);
    const runs = await waitFor(async () => {
      const listed = (await api.expect(200, "GET", `/api/runs?workflowId=${id}`)).runs as Json[];
      return listed.length > 0 ? listed : undefined;
    }, { timeoutMs: 30_000, what: "the webhook's run" });
    const spans = await receiver.waitFor((all) => all.some(runSpanOf(runs[0].id)));
    const run = one(spans, runSpanOf(runs[0].id), "the webhook run's span");
    expect(run).toMatchObject({ traceId: caller.traceId, parentSpanId: caller.spanId });
    expect(run.attributes).toMatchObject({ "studio.run.trigger": "webhook" });
    // A malformed traceparent starts a trace of the run's own (nothing refused).
    const started = await api.request("POST", `/api/workflows/${id}/runs`, { inputs: {} }, { headers: { traceparent: "00-not-a-trace-01" } });
    expect(started.status).toBe(201);
    const own = one(await receiver.waitFor((all) => all.some(runSpanOf(started.body.run.id))), runSpanOf(started.body.run.id), "the run's own trace");
    expect(own.parentSpanId).toBe("");
  });
});
