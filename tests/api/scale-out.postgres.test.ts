import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmptyPostgresDatabase, dropPostgresDatabase } from "@/lib/persistence/temp-database";
import type { ApiClient } from "./api-client";
import { removeWorkFolders, shellNode, workFolder } from "./fixtures";
import { connectEventStream, runEventsOf } from "./sse-client";
import { startStudioServer, type StudioServer } from "./studio-server";
import { startWorker, type WorkerProcess } from "./worker-process";

/*
 * The studio scaled out on PostgreSQL: two web processes that only serve
 * (STUDIO_ROLE=web) and three worker processes (`npm run worker`) on one
 * database. Only this project (api-postgresql) runs it: SQLite is one process.
 */

const RUNS = Number(process.env.SCALE_OUT_RUNS ?? 200);

let databaseUrl: string;
const webs: StudioServer[] = [];
const workers: WorkerProcess[] = [];
let root: string;

beforeAll(async () => {
  databaseUrl = await createEmptyPostgresDatabase();
  const shared = { DATABASE_URL: databaseUrl, STUDIO_SECRET_KEY: randomBytes(32).toString("base64") };
  // The first web process migrates the empty database; the others find it done.
  webs.push(await startStudioServer({ database: "postgresql", env: { ...shared, STUDIO_ROLE: "web" } }));
  webs.push(await startStudioServer({ database: "postgresql", env: { ...shared, STUDIO_ROLE: "web" } }));
  for (let index = 0; index < 3; index++) workers.push(await startWorker({ ...shared, STUDIO_WORKER_CONCURRENCY: "16" }));
  root = workFolder();
}, 120_000);

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.kill("SIGTERM")));
  await Promise.all(webs.map((web) => web.stop()));
  if (databaseUrl) await dropPostgresDatabase(databaseUrl);
  removeWorkFolders();
});

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

describe("scale-out on PostgreSQL: web processes and workers on one database", () => {
  it(`${RUNS} runs over three workers, each waiting for a decision made in a random order through two web processes: each ends as decided, no effect twice`, async () => {
    const [a, b] = webs.map((web) => web.client()) as [ApiClient, ApiClient];
    const { id } = await a.createWorkflow(effectWorkflow(root));

    const runs: string[] = [];
    for (let index = 0; index < RUNS; index++) runs.push((await (index % 2 ? b : a).startRun(id, { mark: `run-${index}` })).id);

    // A browser on web process A watches one run that a worker drives and web process B decides.
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
        const client = runId === watched ? b : index % 2 ? a : b;
        const { id: approvalId, digest } = approvals.get(runId)!;
        await client.expect(200, "POST", `/api/approvals/${approvalId}`, { decision: approve ? "approve" : "deny", digest });
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
});
