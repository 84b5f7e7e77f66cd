import { existsSync, readFileSync, realpathSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PREPARED_PATH_UNAVAILABLE } from "@/lib/persistence/database";
import { ApiClient, type Json } from "./api-client";
import { BYPASS, fanOutWorkflow, removeWorkFolders, shellNode, workFolder, writeFileWorkflow } from "./fixtures";
import { setupStudioServer } from "./studio-server";

const server = setupStudioServer();
let api: ApiClient;

beforeAll(() => {
  api = server.client();
});

afterAll(() => {
  removeWorkFolders();
});

async function runCount(): Promise<number> {
  return (await api.expect(200, "GET", "/api/runs?limit=1")).page.total;
}

describe("starting runs", () => {
  it("refuses bad inputs with 422 naming inputs.<field>, and writes no run", async () => {
    const { id } = await api.createWorkflow(writeFileWorkflow(workFolder()));
    const before = await runCount();
    const missing = await api.post(`/api/workflows/${id}/runs`, { inputs: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.issues).toContainEqual(expect.objectContaining({ path: "inputs.text" }));
    const wrongType = await api.post(`/api/workflows/${id}/runs`, { inputs: { text: 42, file: ["x"] } });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.issues.map((issue: Json) => issue.path)).toEqual(expect.arrayContaining(["inputs.text", "inputs.file"]));
    const notAnObject = await api.post(`/api/workflows/${id}/runs`, { inputs: "text=hi" });
    expect(notAnObject.status).toBe(422);
    expect(notAnObject.body.issues[0].path).toBe("inputs");
    expect(await runCount()).toBe(before);
  });

  it("refuses to run an invalid workflow with 422 and every problem, and writes nothing", async () => {
    const { id } = await api.createWorkflow({
      name: "Not ready",
      nodes: [
        { id: "in", kind: "input", fields: [] },
        { id: "write", kind: "tool", tool: "write_file", settings: {}, arguments: { path: "a.txt", content: "a" } },
        { id: "mystery", kind: "tool", tool: "no_such_tool" },
      ],
      edges: [
        { id: "a", source: "in", target: "write" },
        { id: "b", source: "in", target: "mystery" },
      ],
    });
    const before = server.logs().length;
    const countBefore = await runCount();
    const refused = await api.post(`/api/workflows/${id}/runs`, { inputs: {} });
    expect(refused.status).toBe(422);
    expect(refused.body.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ nodeId: "write", field: "settings.root" }),
        expect.objectContaining({ nodeId: "mystery", field: "tool" }),
      ]),
    );
    expect(refused.body.error).toMatch(/write\.settings\.root/);
    expect(await runCount()).toBe(countBefore);
    expect((await api.expect(200, "GET", `/api/runs?workflowId=${id}`)).runs).toEqual([]);
    expect(server.logs().slice(before)).not.toMatch(/unexpected error/);
  });

  it("answers 404 for unknown workflows, runs and approvals", async () => {
    expect((await api.post("/api/workflows/01NOSUCHWORKFLOW/runs", { inputs: {} })).status).toBe(404);
    expect((await api.get("/api/runs/01NOSUCHRUN")).status).toBe(404);
    expect((await api.get("/api/runs/01NOSUCHRUN/events")).status).toBe(404);
    expect((await api.post("/api/runs/01NOSUCHRUN/cancel")).status).toBe(404);
    expect((await api.get("/api/approvals/no-such-approval")).status).toBe(404);
    expect((await api.post("/api/approvals/no-such-approval", { decision: "once" })).status).toBe(404);
  });
});

describe("approvals", () => {
  it("waits for a write approval with its arguments and diff, then writes once approved", async () => {
    const root = workFolder();
    const { id } = await api.createWorkflow(writeFileWorkflow(root));
    const run = await api.startRun(id, { text: "hello\nworld\n", file: "notes/hello.txt" });

    // The approval is stored a moment before the run is marked as waiting for it.
    await api.waitForRun(run.id, ["awaiting_input"]);
    const approval = await api.waitForApproval(run.id);
    expect(approval).toMatchObject({
      runId: run.id,
      nodeId: "write",
      nodeLabel: "Write the note",
      kind: "write",
      tool: "write_file",
      operation: null,
      status: "pending",
      runStatus: "awaiting_input",
      workflowId: id,
      arguments: { path: "notes/hello.txt", content: "hello\nworld\n" },
    });
    // The folder the path is relative to, in full: a person approving must know which notes/ it lands in.
    expect(approval.preview).toBe(`notes/hello.txt (new file): +2 −0\n(in ${realpathSync(root)})\n+hello\n+world`);
    expect(approval.effect).toEqual({
      kind: "file-change",
      path: "notes/hello.txt",
      root: realpathSync(root),
      change: "create",
      added: 2,
      removed: 0,
      rows: [
        { kind: "added", text: "hello", oldNumber: null, newNumber: 1 },
        { kind: "added", text: "world", oldNumber: null, newNumber: 2 },
      ],
    });
    expect(approval.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const waiting = await api.getRun(run.id);
    expect(waiting.status).toBe("awaiting_input");
    expect(waiting).toMatchObject({ pendingApprovals: 1, totalApprovals: 1 });
    expect(waiting.steps.find((step: Json) => step.nodeId === "write").status).toBe("waiting");
    expect(existsSync(path.join(root, "notes/hello.txt"))).toBe(false);

    // A write takes once / always / deny: "approve" is the wrong kind of decision.
    const wrongKind = await api.post(`/api/approvals/${approval.id}`, { decision: "approve" });
    expect(wrongKind.status).toBe(422);
    expect(wrongKind.body.issues[0].path).toBe("decision");
    const unknownDecision = await api.post(`/api/approvals/${approval.id}`, { decision: "maybe" });
    expect(unknownDecision.status).toBe(422);
    expect((await api.getRun(run.id)).status).toBe("awaiting_input");

    // A decision about something else than what the approval now shows is refused, and changes nothing.
    const otherDigest = await api.post(`/api/approvals/${approval.id}`, { decision: "once", digest: "sha256:something-else" });
    expect(otherDigest.status).toBe(409);
    expect(otherDigest.body.error).toMatch(/What you were shown is not what this step would do now/);
    expect(otherDigest.body.reason).toBe("digest-mismatch");
    expect((await api.getRun(run.id)).status).toBe("awaiting_input");

    const decided = await api.post(`/api/approvals/${approval.id}`, { decision: "once", digest: approval.digest });
    expect(decided.status).toBe(200);
    expect(decided.body.approval).toMatchObject({ status: "approved", decision: "once", decidedBy: { personId: expect.any(String), name: "access token" } });
    expect(decided.body.approval.decidedAt).toEqual(expect.any(String));

    const again = await api.post(`/api/approvals/${approval.id}`, { decision: "deny" });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already approved/);

    const finished = await api.waitForRun(run.id);
    expect(finished).toMatchObject({ status: "succeeded", output: "wrote notes/hello.txt", pendingApprovals: 0, totalApprovals: 1 });
    // The runs list counts the approvals a run asked for, decided ones included.
    const { runs } = await api.expect(200, "GET", `/api/runs?workflowId=${id}`);
    expect(runs.find((each: Json) => each.id === run.id)).toMatchObject({ totalApprovals: 1, pendingApprovals: 0 });
    expect(readFileSync(path.join(root, "notes/hello.txt"), "utf8")).toBe("hello\nworld\n");
    expect(await api.pendingApprovals(run.id)).toEqual([]);
  });

  it("fails the node with the person's feedback on a denial, and stops the run", async () => {
    const root = workFolder();
    const { id } = await api.createWorkflow(writeFileWorkflow(root));
    const run = await api.startRun(id, { text: "nope" });
    const approval = await api.waitForApproval(run.id);
    const denied = await api.post(`/api/approvals/${approval.id}`, { decision: "deny", feedback: "Write it to drafts/ instead." });
    expect(denied.status).toBe(200);
    expect(denied.body.approval).toMatchObject({ status: "denied", feedback: "Write it to drafts/ instead." });

    const finished = await api.waitForRun(run.id);
    expect(finished.status).toBe("failed");
    const write = finished.steps.find((step: Json) => step.nodeId === "write");
    expect(write.status).toBe("failed");
    expect(write.error).toContain("Write it to drafts/ instead.");
    // The run stops at the failed node (onError "stop"): the output node never starts.
    const events = await api.events(run.id);
    expect(events.filter((event) => event.nodeId === "out" && event.type === "node-started")).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: "run-failed" });
    expect(existsSync(path.join(root, "note.txt"))).toBe(false);
  });

  it("cancels a waiting run: the run is cancelled, its approval too; a second cancel is 409", async () => {
    const root = workFolder();
    const { id } = await api.createWorkflow(writeFileWorkflow(root));
    const run = await api.startRun(id, { text: "never" });
    const approval = await api.waitForApproval(run.id);

    const cancelled = await api.post(`/api/runs/${run.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.run.status).toBe("cancelled");
    expect(cancelled.body.run.approvals[0]).toMatchObject({ id: approval.id, status: "cancelled" });
    expect((await api.expect(200, "GET", `/api/approvals/${approval.id}`)).approval.status).toBe("cancelled");
    expect(await api.pendingApprovals(run.id)).toEqual([]);

    const late = await api.post(`/api/approvals/${approval.id}`, { decision: "once" });
    expect(late.status).toBe(409);
    const again = await api.post(`/api/runs/${run.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already finished \(cancelled\)/);

    const events = await api.events(run.id);
    expect(events.at(-1)).toMatchObject({ type: "run-cancelled", payload: { cancelledBy: "access token" } });
    expect(existsSync(path.join(root, "note.txt"))).toBe(false);
  });
});

describe("concurrency", () => {
  /** A server that answers each request after `delayMs`, noting when requests arrive and are answered. */
  async function slowServer(delayMs: number) {
    const log: { arrived: number; answered: number }[] = [];
    const httpServer = http.createServer((_request, response) => {
      const entry = { arrived: Date.now(), answered: 0 };
      log.push(entry);
      setTimeout(() => {
        entry.answered = Date.now();
        response.writeHead(200, { "content-type": "text/plain" }).end("slow hello");
      }, delayMs);
    });
    await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
    const { port } = httpServer.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/`, log, close: () => new Promise((resolve) => httpServer.close(resolve)) };
  }

  /** [start, end] of each node, from its node-started and node-succeeded events. */
  function intervals(events: Json[], nodeIds: string[]): [number, number][] {
    return nodeIds.map((nodeId) => {
      const started = events.find((event) => event.type === "node-started" && event.nodeId === nodeId);
      const succeeded = events.find((event) => event.type === "node-succeeded" && event.nodeId === nodeId);
      if (!started || !succeeded) throw new Error(`node ${nodeId} has no start or success event`);
      return [Date.parse(started.createdAt), Date.parse(succeeded.createdAt)];
    });
  }

  it("runs independent read-only steps at the same time", async () => {
    const slow = await slowServer(800);
    try {
      const branches = ["fetchA", "fetchB"].map((id) => ({ id, kind: "tool", tool: "http", arguments: { url: slow.url } }));
      // The slow server is on this machine: allow-listed, or the outbound-address guardrail would ask first.
      const { id } = await api.createWorkflow(fanOutWorkflow("Two fetches", branches, { guardrails: { localNetworkAllow: ["127.0.0.1"] } }));
      const run = await api.startRun(id);
      const finished = await api.waitForRun(run.id);
      expect(finished.status, finished.error).toBe("succeeded");

      // The second request reached the slow server before the first was answered.
      expect(slow.log).toHaveLength(2);
      const [first, second] = [...slow.log].sort((left, right) => left.arrived - right.arrived);
      expect(second!.arrived).toBeLessThan(first!.answered);
      const [a, b] = intervals(await api.events(run.id), ["fetchA", "fetchB"]);
      expect(Math.max(a![0], b![0])).toBeLessThan(Math.min(a![1], b![1]));
      // One after the other they would take at least 2 × 800 ms.
      expect(Math.max(a![1], b![1]) - Math.min(a![0], b![0])).toBeLessThan(1_600);
    } finally {
      await slow.close();
    }
  });

  it("never runs two shell commands at once: run_command is not concurrency-safe", async () => {
    const root = workFolder();
    const command = (name: string) => `echo "${name} start $(date +%s%3N)" >> times.log; sleep 0.5; echo "${name} end $(date +%s%3N)" >> times.log`;
    const branches = ["shellA", "shellB"].map((id) => shellNode(id, root, command(id)));
    const { id } = await api.createWorkflow(fanOutWorkflow("Two shells", branches, BYPASS));
    const run = await api.startRun(id);
    const finished = await api.waitForRun(run.id);
    expect(finished.status, finished.error).toBe("succeeded");

    const lines = readFileSync(path.join(root, "times.log"), "utf8").trim().split("\n");
    expect(lines).toHaveLength(4);
    // Whichever ran first started and ended before the other started.
    const [firstName] = lines[0]!.split(" ");
    expect(lines.map((line) => line.split(" ").slice(0, 2).join(" "))).toEqual([
      `${firstName} start`,
      `${firstName} end`,
      expect.stringMatching(/ start$/),
      expect.stringMatching(/ end$/),
    ]);
    const times = lines.map((line) => Number(line.split(" ")[2]));
    expect(times[2]).toBeGreaterThanOrEqual(times[1]!);
  });
});

describe("the hot path", () => {
  it("starts, runs and streams runs on prepared statements, never falling back to Prisma queries in the built server", async () => {
    const { id } = await api.createWorkflow(writeFileWorkflow(workFolder(), { mode: "bypass" }));
    const run = await api.startRun(id, { text: "fast" });
    // What POST answered is the run as GET reads it, bar what happened since.
    const fetched = await api.getRun(run.id);
    expect({ ...run, status: fetched.status, lastSeq: 0 }).toMatchObject({ id: fetched.id, workflowName: fetched.workflowName, version: fetched.version, createdAt: fetched.createdAt, definition: fetched.definition });
    expect((await api.waitForRun(run.id)).status).toBe("succeeded");
    expect((await api.events(run.id)).at(-1)?.type).toBe("run-succeeded");
    // Every route bundle has its own copy of the persistence modules; each must find the SQLite connection.
    expect(server.logs()).not.toContain(PREPARED_PATH_UNAVAILABLE);
  });
});
