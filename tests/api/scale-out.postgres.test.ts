import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor, type ApiClient, type Json } from "./api-client";
import { BYPASS, chain, removeWorkFolders, shellNode, workFolder } from "./fixtures";
import { mostAtOnce } from "./most-at-once";
import { connectEventStream, runEventsOf } from "./sse-client";
import { setupSharedPostgresDatabase, setupStudioServer } from "./studio-server";
import { startWorker, type WorkerProcess } from "./worker-process";

/*
 * The studio scaled out on PostgreSQL: two web processes that only serve
 * (STUDIO_ROLE=web) and three worker processes (`npm run worker`) on one
 * database; then workers SIGKILLed at random moments while runs execute and
 * wait; and a real browser signed in to one web process following a run that
 * a worker drives and the other web process decides. One file, so these many
 * processes never run beside each other's. Only this project
 * (api-postgresql) runs it: SQLite is one process.
 */

const RUNS = Number(process.env.SCALE_OUT_RUNS ?? 200);
const KILLS = Number(process.env.WORKER_KILLS ?? 30);

const shared = setupSharedPostgresDatabase({ STUDIO_WORKER_CONCURRENCY: "16" }, { emptyDatabase: true });
// The first web process migrates the empty database; the second finds it done.
const webs = [0, 1].map(() => setupStudioServer(() => ({ database: "postgresql", env: { ...shared, STUDIO_ROLE: "web" } })));
const workers: WorkerProcess[] = [];
let root: string;

beforeAll(async () => {
  for (let index = 0; index < 3; index++) workers.push(await startWorker(shared));
  root = workFolder();
}, 360_000);

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.kill("SIGKILL")));
  removeWorkFolders();
});

/** Three shell steps, each appending "<mark> <step>" to effects.log: every line is a side effect that must happen at most once. */
function effectChain(root: string, name: string, mode: "bypass" | "default") {
  const nodes = [
    { id: "in", kind: "input", fields: [{ name: "mark" }] },
    ...["one", "two", "three"].map((step) => shellNode(step, root, `sleep 0.3; echo "{{ inputs.mark }} ${step}" >> effects.log`)),
  ];
  return { name, ...(mode === "bypass" ? BYPASS : { mode: "default" }), nodes, edges: chain(...nodes.map((node) => node.id)) };
}

/** input -> a shell step that appends the run's mark to effects.log (it asks first) -> output. */
function effectWorkflow(folder: string) {
  return {
    name: "One effect per run",
    mode: "default",
    nodes: [
      { id: "in", kind: "input", fields: [{ name: "mark" }] },
      shellNode("effect", folder, `echo "{{ inputs.mark }}" >> effects.log`),
      { id: "out", kind: "output", value: "done {{ inputs.mark }}" },
    ],
    edges: [
      { id: "a", source: "in", target: "effect" },
      { id: "b", source: "effect", target: "out" },
    ],
  };
}

/** input -> two shell steps that each ask first -> output: the second step's card can only reach an open page live. Laid out in a row, as the editor would. */
function twoDecisionsWorkflow(folder: string) {
  const nodes = [
    { id: "in", kind: "input", fields: [{ name: "mark" }] },
    { ...shellNode("first", folder, `echo "{{ inputs.mark }} first" >> effects.log`), label: "First effect" },
    { ...shellNode("second", folder, `echo "{{ inputs.mark }} second" >> effects.log`), label: "Second effect" },
    { id: "out", kind: "output", value: "done {{ inputs.mark }}" },
  ].map((node, index) => ({ ...node, position: { x: index * 320, y: 0 } }));
  return { name: "Watched from another process", mode: "default", nodes, edges: chain(...nodes.map((node) => node.id)) };
}

/** The same launch options as playwright.config.ts: Debian's Chromium, headless, nothing fetched in the background. */
const BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"];

describe("scale-out on PostgreSQL: web processes and workers on one database", () => {
  it(`${RUNS} runs over three workers, each waiting for a decision made in a random order through two web processes: each ends as decided, no effect twice`, async () => {
    const [a, b] = webs.map((web) => web.client()) as [ApiClient, ApiClient];
    const { id } = await a.createWorkflow(effectWorkflow(root));

    const runs: string[] = [];
    for (let index = 0; index < RUNS; index++) runs.push((await (index % 2 ? b : a).startRun(id, { mark: `run-${index}` })).id);

    // A client of web process A's event stream (what the run page's EventSource reads) watches one run that a worker drives and web process B decides.
    const watched = runs[0]!;
    const stream = await connectEventStream(`${webs[0]!.url}/api/runs/${watched}/events`, a.credential);

    const approvals = new Map<string, { id: string; digest: string }>();
    for (const runId of runs) {
      const approval = await a.waitForApproval(runId, 60_000);
      approvals.set(runId, { id: approval.id, digest: approval.digest });
    }
    const order = [...runs].sort(() => Math.random() - 0.5);
    const approved = new Set<string>();
    await Promise.all(
      order.map(async (runId, index) => {
        const approve = index % 3 !== 0;
        if (approve) approved.add(runId);
        const through = runId === watched ? 1 : index % 2 ? 0 : 1;
        const { id: approvalId, digest } = approvals.get(runId)!;
        const response = await [a, b][through]!.post(`/api/approvals/${approvalId}`, { decision: approve ? "approve" : "deny", digest });
        if (response.status !== 200) throw new Error(`Deciding ${approvalId} answered ${response.status}: ${response.text}\n${webs[through]!.logs().slice(-4000)}`);
      }),
    );

    for (const runId of runs) {
      const run = await (runId.charCodeAt(runId.length - 1) % 2 ? a : b).waitForRun(runId, ["succeeded", "failed", "cancelled"], 90_000);
      expect(run.status, `run ${runId}`).toBe(approved.has(runId) ? "succeeded" : "failed");
    }

    const lines = readFileSync(path.join(root, "effects.log"), "utf8").trim().split("\n");
    const expected = runs.filter((runId) => approved.has(runId)).map((runId) => `run-${runs.indexOf(runId)}`);
    expect(lines.sort()).toEqual(expected.sort());

    const seen = runEventsOf(await stream.rest(30_000));
    stream.close();
    expect(seen.map((event) => event.type)).toEqual(expect.arrayContaining(["approval-decided", approved.has(watched) ? "run-succeeded" : "run-failed"]));
    expect(seen.map((event) => event.seq)).toEqual([...seen.map((event) => event.seq)].sort((x, y) => x - y));
    expect(existsSync(path.join(root, "effects.log"))).toBe(true);
  }, 300_000);

  it("an evaluation started through a web process is driven by the workers: each row's run once, never more at once than its concurrency", async () => {
    const [a, b] = webs.map((web) => web.client()) as [ApiClient, ApiClient];
    const folder = workFolder();
    const nodes = [
      { id: "in", kind: "input", fields: [{ name: "mark" }] },
      shellNode("effect", folder, `sleep 0.3; echo "{{ inputs.mark }}" >> evaluated.log`),
      { id: "out", kind: "output", value: "done {{ inputs.mark }}" },
    ];
    const { id } = await a.createWorkflow({ name: "Evaluated by workers", ...BYPASS, nodes, edges: chain(...nodes.map((node) => node.id)) });
    const rows = Array.from({ length: 12 }, (_, index) => JSON.stringify({ inputs: { mark: `row-${index + 1}` }, expected: `done row-${index + 1}` })).join("\n");
    const upload = await b.request("POST", `/api/workflows/${id}/datasets?name=Rows&format=jsonl`, undefined, { rawBody: rows, headers: { "content-type": "application/x-ndjson" } });
    expect(upload.status, upload.text).toBe(201);
    // Started through one web process (which drives nothing), read through the other.
    const { evaluation } = await a.expect(201, "POST", `/api/workflows/${id}/evaluations`, { datasetId: upload.body.dataset.id, scorers: [{ kind: "exact", name: "exact" }], concurrency: 3 });
    const done = await waitFor(
      async () => {
        const { evaluation: now } = await b.expect(200, "GET", `/api/workflows/${id}/evaluations/${evaluation.id}`);
        return now.status === "running" ? undefined : (now as Json);
      },
      { timeoutMs: 120_000, what: "the evaluation to end" },
    );
    expect(done.progress).toEqual({ pending: 0, running: 0, scored: 12, error: 0, cancelled: 0 });
    expect(done.averages[0].average).toBe(1);
    const lines = readFileSync(path.join(folder, "evaluated.log"), "utf8").trim().split("\n").sort();
    expect(lines).toEqual(Array.from({ length: 12 }, (_, index) => `row-${index + 1}`).sort());
    const runs = await Promise.all(done.results.map((result: Json) => b.getRun(result.runId)));
    expect(new Set(runs.map((run) => run.id)).size).toBe(12);
    expect(mostAtOnce(runs)).toBeLessThanOrEqual(3);
  }, 180_000);

  it("a browser signed in to web process A follows a run that a worker drives and web process B decides, live, without a reload", async () => {
    const [a, b] = webs.map((web) => web.client()) as [ApiClient, ApiClient];
    const folder = workFolder();
    const { id } = await a.createWorkflow(twoDecisionsWorkflow(folder));
    const run = await a.startRun(id, { mark: "watched" });
    const decideThroughB = async (approval: Json) => {
      const response = await b.post(`/api/approvals/${approval.id}`, { decision: "approve", digest: approval.digest });
      if (response.status !== 200) throw new Error(`Deciding ${approval.id} through B answered ${response.status}: ${response.text}\n${webs[1]!.logs().slice(-4000)}`);
    };
    const first = await b.waitForApproval(run.id, 60_000);

    const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: BROWSER_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      // Generous: a worker on a busy 2-core machine drives the run between what the page shows.
      page.setDefaultTimeout(60_000);
      // Signed in as a person is, with the link the studio prints, going on to the run.
      const runUrl = `${webs[0]!.url}/runs/${run.id}`;
      await page.goto(`${webs[0]!.url}/login?token=${encodeURIComponent(webs[0]!.token)}&next=${encodeURIComponent(`/runs/${run.id}`)}`);
      await page.waitForURL(runUrl);
      // A mark on the loaded page's window: a reload or any navigation away would leave a window without it.
      await page.evaluate(() => Object.assign(window, { watchedSinceLoad: true }));

      // The run waits for the first step: its card is there, and the page listens (the stream is open).
      const heading = page.getByRole("heading", { level: 1 });
      await heading.filter({ hasText: "waiting for you" }).waitFor();
      await page.getByRole("article", { name: "First effect wants to run a command" }).waitFor();
      await page.getByText("· live").waitFor();
      const secondCard = page.getByRole("article", { name: "Second effect wants to run a command" });
      expect(await secondCard.count()).toBe(0);

      // Decided through B: A's page shows the decision, and then the second step's card, which did not exist when it loaded.
      await decideThroughB(first);
      const timeline = page.getByRole("region", { name: "Timeline" });
      await timeline.getByRole("listitem").filter({ hasText: "First effect: Approved" }).waitFor();
      await secondCard.waitFor();
      await decideThroughB(await b.waitForApproval(run.id, 60_000));

      // The run's end, as the worker stored it: succeeded, both steps' decisions, and its output in the run's summary.
      await heading.filter({ hasText: "succeeded" }).waitFor();
      await timeline.getByRole("listitem").filter({ hasText: "Second effect: Approved" }).waitFor();
      await timeline.getByRole("listitem").filter({ hasText: "Run succeeded" }).waitFor();
      await page
        .getByRole("group", { name: /^Second effect, .+ tool, succeeded$/ })
        .waitFor()
        .catch(async (error: unknown) => {
          // What the canvas said instead, and what the page heard, for the one who reads the failure.
          const cards = await page
            .locator(".react-flow__node")
            .evaluateAll((nodes) =>
              nodes.map((node) => `${node.getAttribute("aria-label")} [role ${node.getAttribute("role")}, ${getComputedStyle(node).visibility}, ${JSON.stringify(node.getBoundingClientRect())}]`),
            );
          const told = await timeline.getByRole("listitem").allInnerTexts();
          throw new Error(`${String(error)}\nCards: ${JSON.stringify(cards)}\nTimeline: ${JSON.stringify(told)}`);
        });
      await page.getByLabel("Show node").selectOption("");
      await page.getByRole("complementary", { name: "Node details" }).getByText("done watched", { exact: true }).waitFor();
      await page.getByText("· live").waitFor({ state: "detached" });
      await page.screenshot({ path: path.join(folder, "run-followed-live.png"), fullPage: true });
      // All of it arrived on the page as it was loaded: no reload, no navigation.
      expect(await page.evaluate(() => "watchedSinceLoad" in window)).toBe(true);
      expect(page.url()).toBe(runUrl);
      expect(readFileSync(path.join(folder, "effects.log"), "utf8")).toBe("watched first\nwatched second\n");
    } finally {
      await browser.close();
    }
  }, 180_000);

  it(`${KILLS} SIGKILLs of workers while runs execute and wait: nothing lost, nothing done twice`, async () => {
    const root = workFolder();
    const api = webs[0]!.client();
    const unattended = (await api.createWorkflow(effectChain(root, "Unattended effects", "bypass"))).id;
    const attended = (await api.createWorkflow(effectChain(root, "Approved effects", "default"))).id;
    const runs: string[] = [];
    let marks = 0;
    const start = async (workflowId: string) => runs.push((await api.startRun(workflowId, { mark: `m${marks++}` })).id);
    const decided = new Map<string, string>();
    /** Approves most pending approvals, denies a few; remembers each. */
    const decidePending = async () => {
      const pending = (await api.expect(200, "GET", "/api/approvals?status=pending&limit=1000")).approvals as Json[];
      for (const approval of pending) {
        if (decided.has(approval.id)) continue;
        const decision = decided.size % 7 === 3 ? "deny" : "approve";
        const response = await api.post(`/api/approvals/${approval.id}`, { decision, digest: approval.digest });
        if (response.status === 200) decided.set(approval.id, decision);
      }
    };

    // Each victim's replacement boots while the runs before its kill execute (a boot is seconds of CPU; waiting for each
    // in turn made this the suite's longest test). Once started it joins the workers, so afterAll stops it whatever happens.
    const startSpare = () => startWorker(shared).then((worker) => (workers.push(worker), worker));
    let spare = startSpare();
    for (let kill = 0; kill < KILLS; kill++) {
      await start(unattended);
      await start(attended);
      await decidePending();
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 700));
      const ready = await spare;
      const victim = workers.filter((worker) => worker !== ready).at(Math.floor(Math.random() * (workers.length - 1)))!;
      workers.splice(workers.indexOf(victim), 1);
      await victim.kill("SIGKILL");
      spare = startSpare();
    }
    await spare;

    // Let everything finish: keep deciding what comes up until every run has ended.
    const finished = await waitFor(
      async () => {
        await decidePending();
        const listed = await api.everyRow("runs");
        const ours = listed.filter((run) => runs.includes(run.id));
        return ours.length === runs.length && ours.every((run) => ["succeeded", "failed", "cancelled"].includes(run.status)) ? ours : undefined;
      },
      { timeoutMs: 180_000, intervalMs: 500, what: "every run to finish" },
    );

    // No run lost; each ended as its decisions and interruptions say.
    expect(finished).toHaveLength(runs.length);
    const effects = existsSync(path.join(root, "effects.log")) ? readFileSync(path.join(root, "effects.log"), "utf8").trim().split("\n") : [];
    // No side effect twice.
    expect(effects.length).toBe(new Set(effects).size);
    for (const summary of finished) {
      const run = await api.getRun(summary.id);
      const events = await api.events(run.id);
      expect(events.map((event: Json) => event.seq), `run ${run.id}: events numbered without gaps`).toEqual(events.map((_: Json, index: number) => index + 1));
      for (const step of ["one", "two", "three"]) {
        // No finished step run again, no step with side effects started twice.
        expect(events.filter((event: Json) => event.type === "node-succeeded" && event.nodeId === step).length, `run ${run.id} ${step}`).toBeLessThanOrEqual(1);
        expect(events.filter((event: Json) => event.type === "node-started" && event.nodeId === step).length, `run ${run.id} ${step}`).toBeLessThanOrEqual(1);
      }
      if (run.status === "failed") {
        // Only a denial or a kill that cut a step off fails a run here.
        expect(run.error, `run ${run.id}`).toMatch(/denied|Interrupted by a restart/i);
      } else {
        expect(run.status, `run ${run.id}: ${run.error}`).toBe("succeeded");
        const mark = run.inputs.mark as string;
        for (const step of ["one", "two", "three"]) expect(effects, `run ${run.id}`).toContain(`${mark} ${step}`);
      }
    }
    // No approval lost: every one that was asked for ended decided as we decided it (none left pending or dropped).
    const approvals = (await api.expect(200, "GET", "/api/approvals?limit=1000")).approvals as Json[];
    const ours = approvals.filter((approval) => runs.includes(approval.runId));
    expect(ours.filter((approval) => approval.status === "pending")).toEqual([]);
    for (const approval of ours) {
      if (approval.status === "cancelled") continue;
      expect(decided.get(approval.id), `approval ${approval.id}`).toBe(approval.decision);
    }
  }, 600_000);

  it("SIGTERM lets a worker's step in flight finish and hands the rest of the run to another worker", async () => {
    const api = webs[0]!.client();
    const root = workFolder();
    const nodes = [
      { id: "in", kind: "input", fields: [] },
      shellNode("one", root, "echo one >> steps.log"),
      shellNode("two", root, "echo two-started >> steps.log; sleep 2; echo two >> steps.log"),
      shellNode("three", root, "echo three >> steps.log"),
    ];
    const { id } = await api.createWorkflow({ name: "Handed over at shutdown", ...BYPASS, nodes, edges: chain(...nodes.map((node) => node.id)) });
    const run = await api.startRun(id);
    await waitFor(
      async () => (existsSync(path.join(root, "steps.log")) && readFileSync(path.join(root, "steps.log"), "utf8").includes("two-started") ? true : undefined),
      { timeoutMs: 30_000, what: "step two to start" },
    );
    // Every worker is told to stop while step two runs; a new one takes over what is left.
    const stopping = workers.splice(0);
    const stopped = Promise.all(stopping.map((worker) => worker.kill("SIGTERM")));
    workers.push(await startWorker(shared));
    await stopped;

    const finished = await api.waitForRun(run.id, ["succeeded", "failed", "cancelled"], 60_000);
    // The logs of every worker say who drove the run and why it let go, should it not succeed.
    const logs = [...stopping, ...workers].map((worker) => `--- worker ${worker.pid}\n${worker.logs()}`).join("\n");
    expect(finished.status, `${finished.error}\n${logs}`).toBe("succeeded");
    expect(readFileSync(path.join(root, "steps.log"), "utf8")).toBe("one\ntwo-started\ntwo\nthree\n");
    const steps = Object.fromEntries(finished.steps.map((step: Json) => [step.nodeId, [step.status, step.attempt]]));
    expect(steps).toMatchObject({ one: ["succeeded", 1], two: ["succeeded", 1], three: ["succeeded", 1] });
    expect(stopping.some((worker) => worker.logs().includes("finishing what is in flight"))).toBe(true);
  }, 120_000);
});
