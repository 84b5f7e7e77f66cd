import http from "node:http";
import type net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, waitFor, type Json } from "./api-client";
import { chain, removeWorkFolders } from "./fixtures";
import type { RunEventJson } from "./sse-client";
import { freePort, setupStudioServer, takeoverMs } from "./studio-server";

/**
 * Failures handled in the graph, on the built server over HTTP: the checks
 * that name the field, an error workflow started by a failed run and linked
 * both ways, and a retry's wait that survives a SIGKILL without its attempts
 * being counted anew.
 */

const server = setupStudioServer();
let api: ApiClient;

beforeAll(() => {
  api = server.client();
});

afterAll(() => {
  removeWorkFolders();
});

const ofType = (events: RunEventJson[], type: string, nodeId?: string) => events.filter((event) => event.type === type && (nodeId === undefined || event.nodeId === nodeId));

/** Run inputs → Fetch (an HTTP GET to this machine's `port`, allowed) → Output, with the fetch's execution settings. */
function fetchWorkflow(name: string, port: number, execution: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    name,
    guardrails: { localNetworkAllow: [`127.0.0.1:${port}`] },
    nodes: [
      { id: "in", kind: "input", fields: [] },
      { id: "fetch", kind: "tool", label: "Fetch", tool: "http", arguments: { url: `http://127.0.0.1:${port}/status` }, execution },
      { id: "out", kind: "output", value: "{{ nodes.fetch.data.body }}" },
    ],
    edges: chain("in", "fetch", "out"),
    ...extra,
  };
}

describe("checks that name the field", () => {
  it("refuses retry settings out of bounds at save, with the field's path", async () => {
    const refused = await api.request("POST", "/api/workflows", fetchWorkflow("Bad retries", 1, { retry: { maxAttempts: 99, factor: 0.5 }, timeoutMs: 1 }));
    expect(refused.status).toBe(422);
    expect(refused.body.issues.map((issue: Json) => issue.path).sort()).toEqual([
      "nodes[1].execution.retry.factor",
      "nodes[1].execution.retry.maxAttempts",
      "nodes[1].execution.timeoutMs",
    ]);
  });

  it("refuses to run an error path without an error edge, an error edge out of a node that does not follow one, and a bad error workflow", async () => {
    const port = await freePort();
    const problemsOf = async (definition: unknown) => {
      const { id } = await api.createWorkflow(definition);
      const refused = await api.request("POST", `/api/workflows/${id}/runs`, { inputs: {} });
      expect(refused.status, refused.text).toBe(422);
      return { id, problems: refused.body.problems.filter((problem: Json) => problem.severity === "error") };
    };

    const noEdge = await problemsOf(fetchWorkflow("Error path, no edge", port, { onError: "error-edge" }));
    expect(noEdge.problems).toEqual([expect.objectContaining({ nodeId: "fetch", field: "execution.onError", message: expect.stringContaining("red error handle") })]);

    const stray = fetchWorkflow("Stray error edge", port, { onError: "continue" });
    stray.edges.push({ id: "fetch-error", source: "fetch", target: "out", sourceHandle: "error" } as never);
    expect((await problemsOf(stray)).problems).toEqual([expect.objectContaining({ nodeId: "fetch", field: "edges[2].sourceHandle" })]);

    const missing = await problemsOf(fetchWorkflow("Missing error workflow", port, {}, { errorWorkflowId: "01NOSUCHWORKFLOW000000000" }));
    expect(missing.problems).toEqual([expect.objectContaining({ nodeId: null, field: "errorWorkflowId", message: expect.stringContaining("no workflow with id") })]);

    // Itself: the editor's check knows which workflow the draft is, and so does the run's.
    const self = await api.createWorkflow(fetchWorkflow("Its own error workflow", port, {}));
    const definition = { ...(await api.expect(200, "GET", `/api/workflows/${self.id}`)).workflow.definition, errorWorkflowId: self.id };
    await api.expect(200, "PUT", `/api/workflows/${self.id}`, definition);
    const checked = await api.expect(200, "POST", `/api/workflows/validate?workflowId=${self.id}`, definition);
    expect(checked.problems).toEqual([expect.objectContaining({ field: "errorWorkflowId", message: expect.stringContaining("its own error workflow") })]);
    const run = await api.request("POST", `/api/workflows/${self.id}/runs`, { inputs: {} });
    expect(run.status).toBe(422);
    expect(run.body.problems).toEqual([expect.objectContaining({ field: "errorWorkflowId" })]);
  });
});

describe("the error workflow", () => {
  it("runs when a run fails, given the failed run's id, node and error, and each run links to the other", async () => {
    const port = await freePort();
    const notify = await api.createWorkflow({
      name: "Tell someone",
      nodes: [
        { id: "in", kind: "input", fields: [{ name: "runId" }, { name: "nodeId" }, { name: "error", type: "text" }, { name: "errorKind" }] },
        { id: "out", kind: "output", value: "{{ inputs.nodeId }} ({{ inputs.errorKind }}) in {{ inputs.runId }}: {{ inputs.error }}" },
      ],
      edges: chain("in", "out"),
    });
    const failing = await api.createWorkflow(fetchWorkflow("Fails and tells", port, {}, { errorWorkflowId: notify.id }));
    const run = await api.startRun(failing.id);
    const failed = await api.waitForRun(run.id);
    expect(failed.status).toBe("failed");
    const linked = await waitFor(async () => (await api.getRun(run.id)).errorWorkflowRun ?? undefined, { what: "the error workflow's run" });
    expect(linked).toMatchObject({ workflowId: notify.id, workflowName: "Tell someone" });

    const handled = await api.waitForRun(linked.id);
    expect(handled.status).toBe("succeeded");
    expect(handled.trigger).toMatchObject({ kind: "error-workflow", nodeId: null });
    expect(handled.sourceRun).toEqual({ id: run.id, workflowId: failing.id, workflowName: "Fails and tells", status: "failed", kind: "error-workflow" });
    expect(handled.inputs).toEqual({ runId: run.id, nodeId: "fetch", error: expect.stringContaining("the connection was refused"), errorKind: "network" });
    expect(handled.output).toMatch(new RegExp(`^fetch \\(network\\) in ${run.id}: Could not reach GET`));
    expect(ofType(await api.events(run.id), "run-failed")[0]!.payload).toMatchObject({ errorWorkflowRunId: linked.id });
    const listed = (await api.expect(200, "GET", "/api/runs?trigger=error-workflow")).runs;
    expect(listed.map((each: Json) => each.id)).toContain(linked.id);
  });
});

describe("a retry's wait across a SIGKILL", { timeout: 240_000 }, () => {
  it("goes on after the restart where it was: the same attempt count, the next attempt no sooner than it was due", async () => {
    const port = await freePort();
    const { id } = await api.createWorkflow(fetchWorkflow("Retries across a restart", port, { retry: { maxAttempts: 3, initialDelayMs: 15_000 } }));
    const run = await api.startRun(id);
    const retrying = await waitFor(
      async () => {
        const step = (await api.getRun(run.id)).steps.find((each: Json) => each.nodeId === "fetch");
        return step.status === "retrying" ? step : undefined;
      },
      { what: "the fetch to wait for its second attempt" },
    );
    expect(retrying).toMatchObject({ attempt: 1, errorKind: "network", error: expect.stringContaining("the connection was refused") });

    await server.kill("SIGKILL");
    // What the fetch calls answers from now on: the second attempt succeeds.
    const status = http.createServer((_request, response) => response.end("all good"));
    await new Promise<void>((resolve) => status.listen(port, "127.0.0.1", resolve));
    try {
      await server.restart();
      const finished = await api.waitForRun(run.id, undefined, takeoverMs(server));
      expect(finished.status, finished.error).toBe("succeeded");
      expect(finished.output).toBe("all good");
      expect(finished.steps.find((each: Json) => each.nodeId === "fetch")).toMatchObject({ status: "succeeded", attempt: 2, retryAt: null, error: null });

      const events = await api.events(run.id);
      expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
      expect(ofType(events, "node-started", "fetch").map((event) => event.payload.attempt)).toEqual([1, 2]);
      const scheduled = ofType(events, "node-retry-scheduled", "fetch");
      expect(scheduled).toHaveLength(1);
      expect(scheduled[0]!.payload).toMatchObject({ attempt: 1, maxAttempts: 3, delayMs: 15_000, retryAt: retrying.retryAt });
      // The second attempt waited out what was left of the delay (longer than a restart takes), not a new one and not none.
      const second = ofType(events, "node-started", "fetch")[1]!;
      expect(Date.parse(second.createdAt)).toBeGreaterThanOrEqual(Date.parse(retrying.retryAt));
      if (server.provider === "sqlite") expect(ofType(events, "run-resumed")).toHaveLength(1);
    } finally {
      await new Promise<void>((resolve) => (status as net.Server).close(() => resolve()));
    }
  });
});
