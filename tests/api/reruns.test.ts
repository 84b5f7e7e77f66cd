import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DECISIONS_BY_KIND, type ApprovalKind } from "@/lib/contracts/approval";
import { ApiClient, waitFor, type Json } from "./api-client";
import { chain, removeWorkFolders, shellNode, workFolder } from "./fixtures";
import type { RunEventJson } from "./sse-client";
import { freePort, setupStudioServer } from "./studio-server";

/**
 * Runs made from a finished run, on the built server over HTTP (SQLite and
 * PostgreSQL): a retry from the failed step keeps the steps that succeeded
 * (a shell step that appends to a real file appends once) and asks again for
 * the destructive step that runs again; a run again runs the version asked
 * for; each new run links the run it came from, whose page lists it; and the
 * refusals: 409 for a run that has not finished, 422 naming the field.
 */

const server = setupStudioServer();
let api: ApiClient;

beforeAll(() => {
  api = server.client();
});

afterAll(() => {
  removeWorkFolders();
});

const ofType = (events: RunEventJson[], type: string) => events.filter((event) => event.type === type);

/** A local HTTP server answering every request with `answer`, on `port`. */
async function listen(port: number, answer: string): Promise<http.Server> {
  const listening = http.createServer((_request, response) => response.end(answer));
  await new Promise<void>((resolve) => listening.listen(port, "127.0.0.1", resolve));
  return listening;
}

const close = (listening: http.Server) => new Promise<void>((resolve) => listening.close(() => resolve()));

/**
 * Run inputs → Append (a shell command: a line into log.txt, then how many lines it has) → Send (a POST to this
 * machine's `port`, which asks a person) → Output, reading both.
 */
function appendThenSend(name: string, root: string, port: number) {
  return {
    name,
    guardrails: { localNetworkAllow: [`127.0.0.1:${port}`] },
    nodes: [
      { id: "in", kind: "input", fields: [{ name: "who" }] },
      { ...shellNode("append", root, "echo ran >> log.txt && wc -l < log.txt"), label: "Append" },
      { id: "send", kind: "tool", label: "Send", tool: "http", arguments: { method: "POST", url: `http://127.0.0.1:${port}/hook`, body: "{{ inputs.who }}" } },
      { id: "out", kind: "output", value: "{{ nodes.append.data.stdout }} line(s), then {{ nodes.send.data.body }}" },
    ],
    edges: chain("in", "append", "send", "out"),
  };
}

/** Approves (for this time only) every approval the run asks for until it finishes; the node of each, in order. */
async function approveUntilFinished(runId: string): Promise<string[]> {
  const approved: string[] = [];
  const decided = new Set<string>();
  for (;;) {
    const next = await waitFor(
      async () => {
        const run = await api.getRun(runId);
        if (["succeeded", "failed", "cancelled"].includes(run.status)) return { finished: true as const };
        const approval = (await api.pendingApprovals(runId)).find((each) => !decided.has(each.id));
        return approval ? { approval } : undefined;
      },
      { timeoutMs: 30_000, what: `an approval of run ${runId}, or its end` },
    );
    if ("finished" in next) return approved;
    decided.add(next.approval.id);
    // Approved for this once: a shell command takes approve, a request once (neither grants anything for later runs).
    const decision = DECISIONS_BY_KIND[next.approval.kind as ApprovalKind][0];
    await api.expect(200, "POST", `/api/approvals/${next.approval.id}`, { decision, digest: next.approval.digest });
    approved.push(next.approval.nodeId);
  }
}

describe("retry from the failed step", () => {
  it("keeps what succeeded (the file is appended to once), runs the rest on the same version, and asks again before sending", async () => {
    const root = workFolder();
    const port = await freePort();
    const { id } = await api.createWorkflow(appendThenSend("Append then send", root, port));
    const source = await api.startRun(id, { who: "Ada" });
    // Nothing listens on the port yet: the send is refused.
    expect(await approveUntilFinished(source.id)).toEqual(["append", "send"]);
    const failed = await api.getRun(source.id);
    expect(failed.status).toBe("failed");
    expect(failed.error).toContain("the connection was refused");
    const log = () => readFileSync(path.join(root, "log.txt"), "utf8");
    expect(log()).toBe("ran\n");

    const receiver = await listen(port, "received");
    try {
      const created = await api.expect(201, "POST", `/api/runs/${source.id}/retry`);
      const retry = created.run;
      expect(retry).toMatchObject({ workflowId: id, version: failed.version, inputs: { who: "Ada" }, sourceRun: { id: source.id, kind: "retry-from-failure", status: "failed" } });
      expect(retry.steps.map((step: Json) => [step.nodeId, step.status, step.carriedFromRunId])).toEqual([
        ["in", "succeeded", source.id],
        ["append", "succeeded", source.id],
        ["send", "pending", null],
        ["out", "pending", null],
      ]);
      // The approval that let the source send is not reused: the send asks again. The append, kept, does not.
      expect(await approveUntilFinished(retry.id)).toEqual(["send"]);
      const finished = await api.getRun(retry.id);
      expect(finished.status, finished.error).toBe("succeeded");
      expect(log()).toBe("ran\n");
      // The output read the kept result of the append (one line), and the new result of the send.
      expect(finished.output).toMatch(/^\s*1\s+line\(s\), then received$/);

      const events = await api.events(retry.id);
      expect(events[0]).toMatchObject({ type: "run-started", payload: { source: { runId: source.id, kind: "retry-from-failure" } } });
      expect(ofType(events, "node-carried-over").map((event) => [event.nodeId, event.payload.fromRunId])).toEqual([
        ["in", source.id],
        ["append", source.id],
      ]);
      expect(ofType(events, "node-started").map((event) => event.nodeId)).toEqual(["send", "out"]);

      // The source's page lists the retry.
      expect((await api.getRun(source.id)).reruns).toEqual([{ id: retry.id, kind: "retry-from-failure", status: "succeeded", version: failed.version, createdAt: retry.createdAt }]);
    } finally {
      await close(receiver);
    }
  });

  it("refuses a run that has not finished (409), one that succeeded (409), and an unknown run (404)", async () => {
    const root = workFolder();
    const port = await freePort();
    const { id } = await api.createWorkflow(appendThenSend("Not finished yet", root, port));
    const waiting = await api.startRun(id, { who: "Grace" });
    await api.waitForApproval(waiting.id);
    const running = await api.request("POST", `/api/runs/${waiting.id}/retry`);
    expect(running.status).toBe(409);
    expect(running.body.error).toMatch(/has not finished \(it is waiting for a person\)/);
    expect((await api.request("POST", `/api/runs/${waiting.id}/rerun`, { version: "same" })).status).toBe(409);
    await api.expect(200, "POST", `/api/runs/${waiting.id}/cancel`, {});

    const { id: plain } = await api.createWorkflow({ name: "Succeeds", nodes: [{ id: "in", kind: "input", fields: [] }, { id: "out", kind: "output", value: "fine" }], edges: chain("in", "out") });
    const succeeded = await api.waitForRun((await api.startRun(plain)).id);
    const refused = await api.request("POST", `/api/runs/${succeeded.id}/retry`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/nothing to retry from\. Use Run again/);

    expect((await api.request("POST", "/api/runs/01NOSUCHRUN000000000000000/retry")).status).toBe(404);
    expect((await api.request("POST", "/api/runs/01NOSUCHRUN000000000000000/rerun", { version: "same" })).status).toBe(404);
  });
});

describe("run again", () => {
  it("runs the version asked for with the same inputs: the same one, or the newest definition", async () => {
    const definition = (label: string) => ({
      name: "Greets",
      nodes: [
        { id: "in", kind: "input", fields: [{ name: "who" }] },
        { id: "out", kind: "output", value: `${label}: hello {{ inputs.who }}` },
      ],
      edges: chain("in", "out"),
    });
    const { id } = await api.createWorkflow(definition("first"));
    const source = await api.waitForRun((await api.startRun(id, { who: "Ada" })).id);
    expect(source.output).toBe("first: hello Ada");
    await api.expect(200, "PUT", `/api/workflows/${id}`, definition("second"));

    const same = (await api.expect(201, "POST", `/api/runs/${source.id}/rerun`, { version: "same" })).run;
    const latest = (await api.expect(201, "POST", `/api/runs/${source.id}/rerun`, { version: "latest" })).run;
    expect(same).toMatchObject({ version: source.version, latestVersion: source.version + 1, sourceRun: { id: source.id, kind: "run-again" } });
    expect(latest).toMatchObject({ version: source.version + 1, sourceRun: { id: source.id, kind: "run-again" } });
    expect(latest.steps.every((step: Json) => step.carriedFromRunId === null)).toBe(true);
    expect((await api.waitForRun(same.id)).output).toBe("first: hello Ada");
    expect((await api.waitForRun(latest.id)).output).toBe("second: hello Ada");

    // Newest first; the source's own page now offers the newer version.
    const sourceNow = await api.getRun(source.id);
    expect(sourceNow.latestVersion).toBe(source.version + 1);
    expect(sourceNow.reruns.map((rerun: Json) => [rerun.id, rerun.kind, rerun.version])).toEqual([
      [latest.id, "run-again", source.version + 1],
      [same.id, "run-again", source.version],
    ]);
  });

  it("says which field is wrong (422) and writes nothing", async () => {
    const { id } = await api.createWorkflow({ name: "Plain", nodes: [{ id: "in", kind: "input", fields: [] }, { id: "out", kind: "output", value: "x" }], edges: chain("in", "out") });
    const source = await api.waitForRun((await api.startRun(id)).id);
    for (const body of [{ version: "newest" }, { version: 2 }, {}]) {
      const refused = await api.request("POST", `/api/runs/${source.id}/rerun`, body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body.issues.map((issue: Json) => issue.path)).toEqual(["version"]);
    }
    // No body at all: said to send one, as JSON.
    const missing = await api.request("POST", `/api/runs/${source.id}/rerun`);
    expect(missing.status).toBe(415);
    expect((await api.getRun(source.id)).reruns).toEqual([]);
  });
});
