import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, waitFor, type Json } from "./api-client";
import { chain, removeWorkFolders, shellNode, workFolder } from "./fixtures";
import { setupStudioServer } from "./studio-server";

/**
 * Sub-workflow steps on the built server over HTTP (SQLite embedded, and
 * PostgreSQL where runs go through the job queue: the calling run is let go
 * while its child runs, and the child's end drives it on). The called
 * workflow's approval waits in the inbox naming both workflows; its output
 * is the step's; the runs link each other; cancelling the caller cancels the
 * child; validation and the run's start name what is wrong on the step's fields.
 */

const server = setupStudioServer();
let api: ApiClient;

beforeAll(() => {
  api = server.client();
});

afterAll(() => {
  removeWorkFolders();
});

/** Run inputs (who, required) → a shell step (asks a person) → Output, reading the input and the step. */
function childWorkflow(name: string, root: string) {
  return {
    name,
    nodes: [
      { id: "in", kind: "input", fields: [{ name: "who", required: true }] },
      { ...shellNode("greet", root, "echo child-ran"), label: "Greet" },
      { id: "out", kind: "output", value: "{{ inputs.who }} / {{ nodes.greet.data.stdout }}" },
    ],
    edges: chain("in", "greet", "out"),
  };
}

function parentWorkflow(name: string, childId: string, inputs: Record<string, string>) {
  return {
    name,
    nodes: [
      { id: "in", kind: "input", fields: [{ name: "name", required: false }] },
      { id: "call", kind: "subworkflow", label: "Call the greeter", workflowId: childId, inputs },
      { id: "out", kind: "output", value: "{{ nodes.call.output }}" },
    ],
    edges: chain("in", "call", "out"),
  };
}

/** The pending approval of a run that `parentRunId`'s steps called. */
async function calledApproval(parentRunId: string): Promise<Json> {
  return waitFor(
    async () => (await api.pendingApprovals()).find((approval) => approval.calledBy?.runId === parentRunId),
    { timeoutMs: 30_000, what: `the approval of the run ${parentRunId} called` },
  );
}

describe("a Sub-workflow step", () => {
  it("runs the called workflow under the caller's stricter mode: a child saved in bypass asks for its shell command in the inbox, naming both workflows", async () => {
    const root = workFolder();
    const child = await api.createWorkflow({ ...childWorkflow("Trusted greeter", root), mode: "bypass", guardrails: { localNetworkPolicy: "open" } });
    await api.expect(200, "POST", `/api/workflows/${child.id}/publish`, {});
    const parent = await api.createWorkflow({ ...parentWorkflow("Careful welcome", child.id, { who: "Lin" }), guardrails: { localNetworkPolicy: "denied" } });
    const run = await api.startRun(parent.id, {});

    // Saved in bypass its command would run at once; called from a run in default mode, it waits for a person.
    const approval = await calledApproval(run.id);
    expect(approval).toMatchObject({ kind: "shell", workflowName: "Trusted greeter", nodeLabel: "Greet", calledBy: { runId: run.id, workflowName: "Careful welcome", nodeLabel: "Call the greeter" } });
    const called = await api.getRun(approval.runId);
    expect(called.permissions).toMatchObject({ mode: "default", guardrails: { localNetworkPolicy: "denied" } });
    expect(called.definition.mode).toBe("bypass");
    expect(called.sourceRun).toMatchObject({ id: run.id, kind: "sub-workflow" });
    // The caller runs under its own: nothing is recorded on it.
    expect((await api.getRun(run.id)).permissions).toBeNull();

    await api.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "approve", digest: approval.digest });
    const finished = await api.waitForRun(run.id, ["succeeded", "failed", "cancelled"], 30_000);
    expect(finished.status, finished.error).toBe("succeeded");
    expect(finished.output).toMatch(/^Lin \/ child-ran\s*$/);
  });

  it("waits for the called run's approval (named by both workflows), then gives back its output; the runs link each other", async () => {
    const root = workFolder();
    const child = await api.createWorkflow(childWorkflow("Greeter", root));
    await api.expect(200, "POST", `/api/workflows/${child.id}/publish`, {});
    const parent = await api.createWorkflow(parentWorkflow("Welcome", child.id, { who: "{{ inputs.name }}" }));
    const run = await api.startRun(parent.id, { name: "Ada" });

    const approval = await calledApproval(run.id);
    expect(approval).toMatchObject({ workflowName: "Greeter", nodeLabel: "Greet", calledBy: { runId: run.id, workflowId: parent.id, workflowName: "Welcome", nodeId: "call", nodeLabel: "Call the greeter" } });
    const waiting = await api.getRun(run.id);
    expect(waiting.steps.find((step: Json) => step.nodeId === "call").status).toBe("waiting");
    expect(waiting.childRuns).toEqual([expect.objectContaining({ id: approval.runId, nodeId: "call", attempt: 1, workflowName: "Greeter", status: "awaiting_input" })]);

    await api.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "approve", digest: approval.digest });
    const finished = await api.waitForRun(run.id, ["succeeded", "failed", "cancelled"], 30_000);
    expect(finished.status, finished.error).toBe("succeeded");
    expect(finished.output).toMatch(/^Ada \/ child-ran\s*$/);
    expect(finished.childRuns).toEqual([expect.objectContaining({ id: approval.runId, status: "succeeded" })]);

    const childRun = await api.getRun(approval.runId);
    expect(childRun.trigger.kind).toBe("sub-workflow");
    expect(childRun.inputs).toEqual({ who: "Ada" });
    expect(childRun.sourceRun).toMatchObject({ id: run.id, kind: "sub-workflow", workflowName: "Welcome", nodeId: "call", nodeLabel: "Call the greeter" });
    const events = await api.events(run.id);
    expect(events.filter((event) => event.type === "child-run-started").map((event) => event.payload.runId)).toEqual([approval.runId]);
    // One start of the step however the run was driven (let go and driven on, with workers).
    expect(events.filter((event) => event.type === "node-started" && event.nodeId === "call")).toHaveLength(1);
  });

  it("cancelling the calling run cancels the called run", async () => {
    const root = workFolder();
    const child = await api.createWorkflow(childWorkflow("Greeter to cancel", root));
    const parent = await api.createWorkflow(parentWorkflow("Cancelled caller", child.id, { who: "nobody" }));
    const run = await api.startRun(parent.id, {});
    const approval = await calledApproval(run.id);
    await api.expect(200, "POST", `/api/runs/${run.id}/cancel`);
    await api.waitForRun(run.id, ["cancelled"], 30_000);
    const childRun = await api.waitForRun(approval.runId, ["cancelled"], 30_000);
    expect(childRun.approvals.map((each: Json) => each.status)).toEqual(["cancelled"]);
  });

  it("names a loop, an unknown input and a missing one on the step's fields, and a run of such a workflow does not start (422)", async () => {
    const root = workFolder();
    const child = await api.createWorkflow(childWorkflow("Greeter checked", root));
    const parent = await api.createWorkflow(parentWorkflow("Checked caller", child.id, { whom: "x" }));
    const { problems } = await api.expect(200, "POST", `/api/workflows/validate?workflowId=${parent.id}`, parentWorkflow("Checked caller", child.id, { whom: "x" }));
    expect(problems.filter((problem: Json) => problem.nodeId === "call").map((problem: Json) => [problem.field, problem.severity])).toEqual([
      ["version", "warning"],
      ["inputs.whom", "error"],
      ["inputs.who", "error"],
    ]);
    const refused = await api.request("POST", `/api/workflows/${parent.id}/runs`, { inputs: {} });
    expect(refused.status).toBe(422);
    expect(refused.body.problems.map((problem: Json) => `${problem.nodeId}.${problem.field}`)).toEqual(expect.arrayContaining(["call.inputs.whom", "call.inputs.who"]));

    // The child made to call the parent back: the parent's call would loop.
    await api.expect(200, "PUT", `/api/workflows/${child.id}`, parentWorkflow("Greeter checked", parent.id, {}));
    const loop = await api.expect(200, "POST", `/api/workflows/validate?workflowId=${parent.id}`, parentWorkflow("Checked caller", child.id, {}));
    expect(loop.problems.filter((problem: Json) => problem.nodeId === "call" && problem.field === "workflowId").map((problem: Json) => problem.message)).toEqual([
      expect.stringContaining("“Checked caller” calls “Greeter checked”, which calls “Checked caller”"),
    ]);
  });
});
