import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startThrowawayPostgres, type ThrowawayPostgres } from "../support/throwaway-postgres";
import { waitFor, type ApiClient, type Json } from "./api-client";
import { BYPASS, chain, removeWorkFolders, shellNode, workFolder } from "./fixtures";
import { setupStudioServer } from "./studio-server";
import { startWorker, type WorkerProcess } from "./worker-process";

/*
 * PostgreSQL restarted under load (a cluster of the test's own, stopped and
 * started while runs execute and wait): every run goes on and succeeds (the
 * engine's calls wait for the database to answer again), nothing is lost, no
 * side effect happens twice. PostgreSQL only.
 */

let cluster: ThrowawayPostgres | undefined;
let worker: WorkerProcess;
let api: ApiClient;
const env = { DATABASE_URL: "", STUDIO_SECRET_KEY: randomBytes(32).toString("base64") };

// Hooks run in order and are undone in reverse: the cluster first and last, then the studio, then its worker.
beforeAll(async () => {
  cluster = await startThrowawayPostgres();
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query("CREATE DATABASE studio");
  await admin.end();
  env.DATABASE_URL = cluster.urlOf("studio");
}, 120_000);

afterAll(() => {
  cluster?.destroy();
  removeWorkFolders();
});

const studio = setupStudioServer(() => ({ database: "postgresql", env }));

beforeAll(async () => {
  worker = await startWorker(env);
  api = studio.client();
}, 180_000);

afterAll(async () => {
  await worker?.kill("SIGKILL");
});

function effectChain(root: string, name: string, mode: "bypass" | "default") {
  const nodes = [
    { id: "in", kind: "input", fields: [{ name: "mark" }] },
    ...["one", "two"].map((step) => shellNode(step, root, `sleep 0.5; echo "{{ inputs.mark }} ${step}" >> effects.log`)),
  ];
  return { name, ...(mode === "bypass" ? BYPASS : { mode: "default" }), nodes, edges: chain(...nodes.map((node) => node.id)) };
}

/** A request that may meet the database down: tried again until it answers as expected. */
async function eventually<T>(what: string, attempt: () => Promise<T>): Promise<T> {
  return waitFor(async () => attempt().catch(() => undefined), { timeoutMs: 60_000, intervalMs: 250, what });
}

describe("a PostgreSQL restart under load", () => {
  it("resumes every run: nothing lost, nothing done twice", async () => {
    const root = workFolder();
    const unattended = (await api.createWorkflow(effectChain(root, "Unattended", "bypass"))).id;
    const attended = (await api.createWorkflow(effectChain(root, "Attended", "default"))).id;
    const runs: string[] = [];
    for (let index = 0; index < 8; index++) {
      runs.push((await api.startRun(unattended, { mark: `u${index}` })).id);
      runs.push((await api.startRun(attended, { mark: `a${index}` })).id);
    }
    await waitFor(async () => ((await api.pendingApprovals()).length >= 4 ? true : undefined), { timeoutMs: 30_000, what: "some runs waiting" });

    cluster!.stop();
    cluster!.start();

    // Decide everything that comes up until every run has ended, through the same studio, once it answers again.
    const decided = new Set<string>();
    const finished = await waitFor(
      async () => {
        const pending = await api.pendingApprovals().catch(() => [] as Json[]);
        for (const approval of pending) {
          if (decided.has(approval.id)) continue;
          const response = await api.post(`/api/approvals/${approval.id}`, { decision: "approve", digest: approval.digest }).catch(() => null);
          if (response?.status === 200) decided.add(approval.id);
        }
        const listed = await api.get("/api/runs?limit=200").catch(() => null);
        if (listed?.status !== 200) return undefined;
        const ours = (listed.body.runs as Json[]).filter((run) => runs.includes(run.id));
        return ours.length === runs.length && ours.every((run) => ["succeeded", "failed", "cancelled"].includes(run.status)) ? ours : undefined;
      },
      { timeoutMs: 180_000, intervalMs: 500, what: "every run to end after the restart" },
    );

    const effects = existsSync(path.join(root, "effects.log")) ? readFileSync(path.join(root, "effects.log"), "utf8").trim().split("\n") : [];
    expect(effects.length, "no side effect twice").toBe(new Set(effects).size);
    for (const summary of finished) {
      const run = await eventually(`run ${summary.id}`, () => api.getRun(summary.id));
      // Only the database restarted: a step in flight waits for it and goes on, so no run fails or is cut off.
      expect(run.status, `run ${run.id}: ${run.error}`).toBe("succeeded");
      const events = await api.events(run.id);
      expect(events.map((event: Json) => event.seq)).toEqual(events.map((_: Json, index: number) => index + 1));
      for (const step of ["one", "two"]) {
        expect(events.filter((event: Json) => event.type === "node-started" && event.nodeId === step).length).toBeLessThanOrEqual(1);
      }
    }
    expect(await api.pendingApprovals()).toEqual([]);
  }, 300_000);
});
