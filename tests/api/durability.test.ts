import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, waitFor, type Json } from "./api-client";
import { processesWithMarker, uniqueSleep, waitFor as waitForProcesses } from "../../lib/tools/testing/processes";
import { removeWorkFolders, shellChainWorkflow, workFolder, writeFileWorkflow } from "./fixtures";
import type { RunEventJson } from "./sse-client";
import { setupStudioServer, takeoverMs } from "./studio-server";

/**
 * The headline promise: SIGKILL the server at any point of a run, start it
 * again on the same data folder, and nothing is lost or done twice.
 */

const server = setupStudioServer();
let api: ApiClient;

beforeAll(() => {
  api = server.client();
});

afterAll(() => {
  removeWorkFolders();
});

/** Events numbered 1, 2, 3, ... with no gap and no repeat. */
function expectContiguous(events: RunEventJson[]): void {
  expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
}

const count = (events: RunEventJson[], type: string, nodeId?: string) =>
  events.filter((event) => event.type === type && (nodeId === undefined || event.nodeId === nodeId)).length;

function shuffle<T>(items: T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(Math.random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

// Each test kills and restarts the server and waits on its runs: on a loaded 2-core machine that takes
// well over the default 30 s, so the block allows more; every wait inside is for an event, not a time.
describe("durability across SIGKILL", { timeout: 180_000 }, () => {
  it("keeps a run waiting for approval, and its approval, across a kill; a decision after the restart completes it", async () => {
    const root = workFolder();
    const { id } = await api.createWorkflow(writeFileWorkflow(root));
    const run = await api.startRun(id, { text: "survived", file: "survivor.txt" });
    const approval = await api.waitForApproval(run.id);
    // The approval is stored a moment before the step and the run say they wait (one commit): killed in
    // between, the step is found running with its approval pending and waits again after a "resumed". Here the
    // kill comes once the run is stored as waiting.
    await api.waitForRun(run.id, ["awaiting_input"]);

    await server.kill("SIGKILL");
    await server.restart();

    const resumed = await api.waitForRun(run.id, ["awaiting_input"]);
    expect(resumed.steps.find((step: Json) => step.nodeId === "in").attempt).toBe(1);
    const pending = await api.pendingApprovals(run.id);
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ id: approval.id, status: "pending", arguments: approval.arguments, preview: approval.preview });
    // SQLite: the restarted server resumes the run and waits again. PostgreSQL: a run that only waits holds no
    // process (it was parked before the kill); the decision's job drives it again.
    if (server.provider === "sqlite") expect(server.logs()).toMatch(/resumed 1 unfinished run/);
    expect(existsSync(path.join(root, "survivor.txt"))).toBe(false);

    await api.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "once" });
    const finished = await api.waitForRun(run.id);
    expect(finished.status, finished.error).toBe("succeeded");
    expect(readFileSync(path.join(root, "survivor.txt"), "utf8")).toBe("survived");

    const events = await api.events(run.id);
    expectContiguous(events);
    expect(count(events, "run-resumed")).toBe(server.provider === "sqlite" ? 1 : 0);
    expect(count(events, "approval-requested")).toBe(1);
    expect(count(events, "approval-decided")).toBe(1);
    expect(count(events, "node-succeeded", "write")).toBe(1);
    expect(count(events, "node-succeeded", "in")).toBe(1);
    expect(events.at(-1)!.type).toBe("run-succeeded");
    expect((await api.expect(200, "GET", `/api/approvals?runId=${run.id}`)).approvals).toHaveLength(1);
  });

  it("resumes a run killed midway: finished steps are not run again, and the command cut off is not run twice nor left running", async () => {
    const root = workFolder();
    // The command cut off has also daemonised a process (setsid, disowned): it must die with the server.
    const daemon = uniqueSleep();
    const daemonising = `setsid bash -c '${daemon}' & disown; until pgrep -f -- '^${daemon}$' > /dev/null; do sleep 0.05; done`;
    const { id } = await api.createWorkflow(
      shellChainWorkflow(
        root,
        ["echo first >> log.txt", `${daemonising}; echo start >> log.txt; sleep 3; echo second >> log.txt`, "echo third >> log.txt"],
        "Killed midway",
      ),
    );
    const run = await api.startRun(id);
    await waitFor(
      async () => {
        const current = await api.getRun(run.id);
        const running = current.steps.find((step: Json) => step.nodeId === "step2").status === "running";
        return running && readFileSync(path.join(root, "log.txt"), "utf8").includes("start") ? current : undefined;
      },
      { what: "the second command to start" },
    );
    expect(readFileSync(path.join(root, "log.txt"), "utf8")).toBe("first\nstart\n");
    expect(processesWithMarker(daemon).length).toBeGreaterThan(0);

    await server.kill("SIGKILL");
    await waitForProcesses(() => processesWithMarker(daemon).length === 0, 30_000, "the daemonised sleep gone with the killed server");
    await server.restart();

    // The command may have finished its work (or not): it is not started again behind anyone's back.
    const finished = await api.waitForRun(run.id, undefined, takeoverMs(server));
    expect(finished.status).toBe("failed");
    expect(finished.error).toMatch(/Interrupted by a restart/);
    const steps = Object.fromEntries(finished.steps.map((step: Json) => [step.nodeId, [step.status, step.attempt]]));
    expect(steps).toEqual({ step1: ["succeeded", 1], step2: ["failed", 1], step3: ["skipped", 0] });
    const log = readFileSync(path.join(root, "log.txt"), "utf8");
    expect(log.match(/start/g)).toHaveLength(1);
    expect(log).not.toContain("third");

    const events = await api.events(run.id);
    expectContiguous(events);
    expect(count(events, "node-started", "step1")).toBe(1);
    expect(count(events, "node-started", "step2")).toBe(1);
    expect(count(events, "node-failed", "step2")).toBe(1);
    expect(count(events, "run-resumed")).toBe(1);
  });

  it("finishes 20 runs waiting at once, decided in random order, with a kill halfway through", async () => {
    const root = workFolder();
    const { id } = await api.createWorkflow(writeFileWorkflow(root, { name: "Many approvals" }));
    const runs: Json[] = await Promise.all(
      Array.from({ length: 20 }, (_, index) => api.startRun(id, { text: `content of run ${index}`, file: `run-${index}.txt` })),
    );
    const approvals = await waitFor(
      async () => {
        const pending = (await api.pendingApprovals()).filter((approval: Json) => approval.workflowId === id);
        return pending.length === 20 ? pending : undefined;
      },
      { what: "20 pending approvals" },
    );
    const indexOfRun = new Map(runs.map((run, index) => [run.id, index]));
    // Every fifth run is denied; the rest approved once.
    const decisionFor = (approval: Json) => (indexOfRun.get(approval.runId)! % 5 === 0 ? "deny" : "once");
    const order = shuffle(approvals);

    const firstHalf = await Promise.all(
      order.slice(0, 10).map((approval) => api.post(`/api/approvals/${approval.id}`, { decision: decisionFor(approval) })),
    );
    expect(firstHalf.map((response) => response.status)).toEqual(Array(10).fill(200));

    await server.kill("SIGKILL");
    await server.restart();

    for (const approval of order.slice(10)) {
      const response = await api.post(`/api/approvals/${approval.id}`, { decision: decisionFor(approval), feedback: "decided after restart" });
      expect(response.status, response.text).toBe(200);
    }
    // A repeated decision is harmless: 409, nothing changes.
    expect((await api.post(`/api/approvals/${order[0]!.id}`, { decision: "once" })).status).toBe(409);

    for (const [index, run] of runs.entries()) {
      const finished = await api.waitForRun(run.id, undefined, takeoverMs(server));
      const file = path.join(root, `run-${index}.txt`);
      if (index % 5 === 0) {
        expect(finished.status, `run ${index}`).toBe("failed");
        expect(existsSync(file), `run ${index}`).toBe(false);
      } else if (finished.status === "failed") {
        // Approved before the kill, and its write cut off by it: not written again, and said so. Written at most once.
        expect(finished.error, `run ${index}`).toMatch(/Interrupted by a restart/);
        if (existsSync(file)) expect(readFileSync(file, "utf8")).toBe(`content of run ${index}`);
      } else {
        expect(finished.status, `run ${index}: ${finished.error}`).toBe("succeeded");
        expect(readFileSync(file, "utf8")).toBe(`content of run ${index}`);
      }
      const events = await api.events(run.id);
      expectContiguous(events);
      expect(count(events, "approval-requested"), `run ${index}: approval-requested events`).toBe(1);
      expect(count(events, "approval-decided"), `run ${index}: approval-decided events`).toBe(1);
    }
    expect((await api.pendingApprovals()).filter((approval: Json) => approval.workflowId === id)).toEqual([]);
  });
});
