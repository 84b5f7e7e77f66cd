import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StudioDatabase } from "@/lib/persistence";
import { disconnectDatabase } from "@/lib/persistence";
import { ApiClient, waitFor, type Json } from "./api-client";
import { chain, removeWorkFolders, workFolder, writeFileWorkflow } from "./fixtures";
import { setupStudioServer } from "./studio-server";

/**
 * DELETE /api/runs/{id} on the built server, on SQLite and on PostgreSQL (the
 * api-postgresql project runs this file again): a finished run goes with
 * everything of it (steps, events, approvals, the runs its steps called) and
 * the security log says so; a waiting run is refused with 409 and nothing
 * changes; an unknown run is 404.
 */

const server = setupStudioServer();
let api: ApiClient;
let database: StudioDatabase;

beforeAll(() => {
  api = server.client();
  database = server.openDatabase();
});

afterAll(async () => {
  await disconnectDatabase(database);
  removeWorkFolders();
});

/** Every row that belongs to the runs `runIds`, by table. */
async function rowsOf(runIds: string[]): Promise<Record<string, number>> {
  const byRun = { runId: { in: runIds } };
  return {
    runs: await database.run.count({ where: { id: { in: runIds } } }),
    steps: await database.step.count({ where: byRun }),
    events: await database.runEvent.count({ where: byRun }),
    approvals: await database.approval.count({ where: byRun }),
    agentCheckpoints: await database.agentCheckpoint.count({ where: byRun }),
    webhookDeliveries: await database.webhookDelivery.count({ where: byRun }),
  };
}

/** A workflow a Sub-workflow step calls: its inputs straight to its output, asking nobody. */
function greeter(name: string) {
  return {
    name,
    nodes: [
      { id: "in", kind: "input", fields: [{ name: "who", required: true }] },
      { id: "out", kind: "output", value: "hello {{ inputs.who }}" },
    ],
    edges: chain("in", "out"),
  };
}

/** Calls the greeter, then writes its answer to a file (which waits for a person's approval). */
function caller(name: string, greeterId: string, root: string) {
  const write = writeFileWorkflow(root);
  return {
    name,
    nodes: [
      { id: "in", kind: "input", fields: [] },
      { id: "call", kind: "subworkflow", label: "Greet", workflowId: greeterId, inputs: { who: "Ada" } },
      { id: "write", kind: "tool", tool: "write_file", settings: { root }, arguments: { path: "greeting.txt", content: "{{ nodes.call.output }}" } },
      { id: "out", kind: "output", value: "{{ nodes.call.output }}" },
    ],
    edges: chain("in", "call", "write", "out"),
    mode: write.mode,
  };
}

async function auditEntries(): Promise<Json[]> {
  return (await api.expect(200, "GET", "/api/audit")).entries;
}

describe("DELETE /api/runs/{id}", () => {
  it("deletes a finished run with its steps, events, approvals and the runs it called; a pin made from it stays; the security log names run and workflow", async () => {
    const root = workFolder();
    const called = await api.createWorkflow(greeter("Greeter to delete"));
    await api.expect(200, "POST", `/api/workflows/${called.id}/publish`, {});
    const workflow = await api.createWorkflow(caller("Run to delete", called.id, root));
    const run = await api.startRun(workflow.id, {});
    const approval = await api.waitForApproval(run.id);
    const child = (await api.getRun(run.id)).childRuns[0];
    expect(child).toMatchObject({ kind: "sub-workflow", status: "succeeded" });

    // While its caller waits, the called run is part of a run that is going: refused.
    const childRefusal = await api.request("DELETE", `/api/runs/${child.id}`);
    expect(childRefusal.status, childRefusal.text).toBe(409);
    expect(childRefusal.body.error).toMatch(/still going/);

    await api.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "once", digest: approval.digest });
    expect((await api.waitForRun(run.id)).status).toBe("succeeded");
    await api.expect(200, "PUT", `/api/workflows/${workflow.id}/pins/call`, { fromRunId: run.id });

    const before = await rowsOf([run.id, child.id]);
    expect(before).toMatchObject({ runs: 2, approvals: 1 });
    expect(before.steps).toBeGreaterThanOrEqual(4);
    expect(before.events).toBeGreaterThan(4);

    const { deleted } = await api.expect(200, "DELETE", `/api/runs/${run.id}`);
    expect(deleted).toEqual({ id: run.id, workflowId: workflow.id, workflowName: "Run to delete", runsDeleted: 2 });

    expect(await rowsOf([run.id, child.id])).toEqual({ runs: 0, steps: 0, events: 0, approvals: 0, agentCheckpoints: 0, webhookDeliveries: 0 });
    await api.expect(404, "GET", `/api/runs/${run.id}`);
    await api.expect(404, "GET", `/api/runs/${child.id}`);
    expect((await api.expect(200, "GET", `/api/approvals?runId=${run.id}`)).approvals).toEqual([]);
    // The pin is the editor's test data: it stays, and no longer names a run that is gone.
    const pins: Json[] = (await api.expect(200, "GET", `/api/workflows/${workflow.id}/pins`)).pins;
    expect(pins).toEqual([expect.objectContaining({ nodeId: "call", fromRunId: null })]);
    // The workflows themselves are untouched.
    await api.expect(200, "GET", `/api/workflows/${workflow.id}`);

    const entry = (await auditEntries()).find((candidate) => candidate.action === "run-deleted" && candidate.target === run.id);
    expect(entry).toMatchObject({ actorId: (await api.expect(200, "GET", "/api/me")).person.id, detail: { workflow: "Run to delete", workflowId: workflow.id, runsDeleted: 2 } });

    // Gone is gone: a second DELETE finds nothing.
    await api.expect(404, "DELETE", `/api/runs/${run.id}`);
  });

  it("refuses a waiting run with 409 saying to cancel it first, and changes nothing; once cancelled it can be deleted", async () => {
    const workflow = await api.createWorkflow(writeFileWorkflow(workFolder(), { name: "Waiting run" }));
    const run = await api.startRun(workflow.id, { text: "wait" });
    await api.waitForApproval(run.id);
    // The approval is stored before the run announces it and waits: snapshot the rows once it does.
    await api.waitForRun(run.id, ["awaiting_input"]);
    const rows = await rowsOf([run.id]);
    const counts = await api.counts();
    const entries = (await auditEntries()).length;

    const refusal = await api.request("DELETE", `/api/runs/${run.id}`);
    expect(refusal.status, refusal.text).toBe(409);
    expect(refusal.body.error).toMatch(/waiting for input: cancel it first/);

    expect(await rowsOf([run.id])).toEqual(rows);
    expect(await api.counts()).toEqual(counts);
    expect((await api.getRun(run.id)).status).toBe("awaiting_input");
    expect((await auditEntries()).length).toBe(entries);

    await api.expect(200, "POST", `/api/runs/${run.id}/cancel`, {});
    await waitFor(async () => ((await api.getRun(run.id)).status === "cancelled" ? true : undefined), { what: "the run to be cancelled" });
    await api.expect(200, "DELETE", `/api/runs/${run.id}`);
    expect((await rowsOf([run.id])).runs).toBe(0);
  });

  it("answers 404 for a run that does not exist, and writes nothing to the security log", async () => {
    const entries = (await auditEntries()).length;
    const response = await api.request("DELETE", "/api/runs/no-such-run");
    expect(response.status).toBe(404);
    expect(response.body.error).toMatch(/run/);
    expect((await auditEntries()).length).toBe(entries);
  });
});
