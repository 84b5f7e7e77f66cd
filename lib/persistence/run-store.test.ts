import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunCommit } from "@/lib/workflow/run-types";
import { createRun, getRunDetail, readEvents } from "./run-queries";
import { PrismaRunStore } from "./run-store";
import { openTempDatabase, type TempDatabase } from "./temp-database";
import { createWorkflow } from "./workflow-store";
import { disconnectDatabase } from "./database";
import { DATABASE_PROVIDERS } from "./database-provider";

const at = "2026-01-02T03:04:05.678Z";

function started(runId: string, seq: number): RunCommit {
  return {
    run: { status: "running" },
    steps: [{ nodeId: "a", status: "running", attempt: 1, startedAt: at }],
    events: [{ runId, seq, type: "node-started", nodeId: "a", payload: { kind: "tool", attempt: seq }, createdAt: at }],
  };
}

// SQLite: statements on Prisma's connection; PostgreSQL: named statements on the pool beside Prisma's.
describe.each(DATABASE_PROVIDERS)("PrismaRunStore's prepared-statement path on %s", (provider) => {
  let temp: TempDatabase;
  let store: PrismaRunStore;
  let workflowId: string;

  beforeAll(async () => {
    temp = await openTempDatabase({ provider });
    store = new PrismaRunStore(temp.database);
    const workflow = await createWorkflow(
      { name: "store", mode: "bypass", nodes: [{ id: "a", kind: "tool", tool: "noop" }], edges: [] },
      temp.database,
    );
    workflowId = workflow.id;
  });

  afterAll(() => temp.close());

  it("writes what Prisma reads back: statuses, JSON, dates and lastSeq", async () => {
    const { runId } = await createRun(workflowId, { x: 1 }, {}, temp.database);
    await store.commit(runId, started(runId, 1));
    await store.commit(runId, {
      run: { status: "succeeded", output: { answer: 42 }, error: null, finishedAt: at },
      steps: [{ nodeId: "a", status: "succeeded", input: { label: "x" }, output: { content: "done", data: [1] }, finishedAt: at }],
      events: [{ runId, seq: 2, type: "run-succeeded", nodeId: null, payload: { output: { answer: 42 } }, createdAt: at }],
    });
    const detail = await getRunDetail(runId, temp.database);
    expect(detail).toMatchObject({ status: "succeeded", output: { answer: 42 }, lastSeq: 2, finishedAt: at });
    expect(detail.steps).toEqual([
      {
        nodeId: "a",
        status: "succeeded",
        input: { label: "x" },
        output: { content: "done", data: [1] },
        error: null,
        errorKind: null,
        attempt: 1,
        retryAt: null,
        startedAt: at,
        finishedAt: at,
        carriedFromRunId: null,
        carriedAs: null,
      },
    ]);
    expect(await readEvents(runId, 0, 10, temp.database)).toEqual([
      { runId, seq: 1, type: "node-started", nodeId: "a", payload: { kind: "tool", attempt: 1 }, createdAt: at },
      { runId, seq: 2, type: "run-succeeded", nodeId: null, payload: { output: { answer: 42 } }, createdAt: at },
    ]);
    const loaded = await store.loadRun(runId);
    const { workflowName, durationMs, pendingApprovals, totalApprovals, startedBy, usage, modelPrices, definition, steps, approvals, errorWorkflowRun, sourceRun, childRuns, permissions, loop, reruns, latestVersion, ...record } =
      detail;
    // What the engine loads through SQL equals what the API reads through Prisma.
    expect(loaded?.run).toEqual(record);
    expect(loaded?.steps).toEqual(detail.steps);
    expect(loaded?.definition.name).toBe("store");
  });

  it("keeps a retrying step's error kind and when its next attempt is due, read alike by the engine and the API", async () => {
    const { runId } = await createRun(workflowId, {}, {}, temp.database);
    await store.commit(runId, started(runId, 1));
    const due = "2026-01-02T03:04:09.000Z";
    await store.commit(runId, { steps: [{ nodeId: "a", status: "retrying", error: "reset", errorKind: "network", retryAt: due, finishedAt: at }], events: [] });
    const detail = await getRunDetail(runId, temp.database);
    expect(detail.steps[0]).toMatchObject({ status: "retrying", error: "reset", errorKind: "network", retryAt: due, attempt: 1 });
    expect((await store.loadRun(runId))?.steps).toEqual(detail.steps);
    await store.commit(runId, { steps: [{ nodeId: "a", status: "running", attempt: 2, retryAt: null, errorKind: null }], events: [] });
    expect((await store.loadRun(runId))?.steps[0]).toMatchObject({ status: "running", attempt: 2, retryAt: null, errorKind: null });
  });

  it("groups concurrent commits into one transaction, yet a failing commit fails alone", async () => {
    const first = await createRun(workflowId, {}, {}, temp.database);
    const second = await createRun(workflowId, {}, {}, temp.database);
    await store.commit(first.runId, started(first.runId, 1));
    const results = await Promise.allSettled([
      // seq 1 again: the unique (runId, seq) index refuses it.
      store.commit(first.runId, started(first.runId, 1)),
      store.commit(second.runId, started(second.runId, 1)),
      store.commit("no-such-run", started("no-such-run", 1)),
    ]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "fulfilled", "rejected"]);
    expect((await readEvents(first.runId, 0, 10, temp.database)).map((event) => event.seq)).toEqual([1]);
    expect((await getRunDetail(first.runId, temp.database)).lastSeq).toBe(1);
    expect((await readEvents(second.runId, 0, 10, temp.database)).map((event) => event.seq)).toEqual([1]);
  });

  it("keeps working after the client disconnects", async () => {
    const { runId } = await createRun(workflowId, {}, {}, temp.database);
    await disconnectDatabase(temp.database);
    await store.commit(runId, started(runId, 1));
    expect((await store.loadRun(runId))?.run.lastSeq).toBe(1);
  });
});
