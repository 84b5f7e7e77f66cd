import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, waitFor, type Json } from "./api-client";
import { removeWorkFolders, shellNode, workFolder } from "./fixtures";
import { setupStudioServer } from "./studio-server";

/**
 * For each steps on the built server over HTTP (SQLite embedded, and
 * PostgreSQL where runs go through the job queue: the loop's run is let go
 * while its items wait, and each item's end drives it on). Each item is a run
 * whose approval waits in the inbox naming the item; the step's output is the
 * items' values in order; validation names what is wrong on the step's fields.
 */

const server = setupStudioServer();
let api: ApiClient;

beforeAll(() => {
  api = server.client();
});

afterAll(() => {
  removeWorkFolders();
});

/** Lists `root`'s files, then, for each, runs a shell command (which asks a person) two at a time. */
function loopWorkflow(name: string, root: string, list = "{{ nodes.list.data.entries }}") {
  return {
    name,
    nodes: [
      { id: "in", kind: "input", fields: [] },
      { id: "list", kind: "tool", tool: "list_dir", settings: { root }, arguments: { path: "." } },
      { id: "loop", kind: "foreach", label: "Each file", list, concurrency: 2 },
      { ...shellNode("show", root, "echo item-{{ index }}"), label: "Show it" },
      { id: "out", kind: "output", value: "{{ nodes.loop.data }}" },
    ],
    edges: [
      { id: "in-list", source: "in", target: "list" },
      { id: "list-loop", source: "list", target: "loop" },
      { id: "loop-show", source: "loop", target: "show", sourceHandle: "item" },
      { id: "loop-out", source: "loop", target: "out", sourceHandle: "done" },
    ],
  };
}

async function itemApprovals(runId: string): Promise<Json[]> {
  return (await api.pendingApprovals()).filter((approval) => approval.calledBy?.runId === runId);
}

describe("a For each step", () => {
  it("runs an item run per file, two at a time, each approval naming its item; the results come back in order", async () => {
    const root = workFolder();
    for (const file of ["a.txt", "b.txt", "c.txt"]) writeFileSync(path.join(root, file), file);
    const workflow = await api.createWorkflow(loopWorkflow("Show each file", root));
    const run = await api.startRun(workflow.id, {});

    const first = await waitFor(async () => ((await itemApprovals(run.id)).length === 2 ? await itemApprovals(run.id) : undefined), { timeoutMs: 30_000, what: "two items waiting" });
    expect(first.map((approval) => approval.calledBy.item).sort((a: Json, b: Json) => a.index - b.index)).toEqual([
      { index: 0, count: 3 },
      { index: 1, count: 3 },
    ]);
    expect(first[0]).toMatchObject({ kind: "shell", workflowName: "Show each file", nodeLabel: "Show it", calledBy: { runId: run.id, nodeId: "loop", nodeLabel: "Each file" } });
    const waiting = await api.getRun(run.id);
    expect(waiting.steps.find((step: Json) => step.nodeId === "loop").status).toBe("waiting");
    expect(waiting.steps.find((step: Json) => step.nodeId === "show").status).toBe("skipped");

    for (let decided = 0; decided < 3; ) {
      const pending = await waitFor(async () => {
        const now = await itemApprovals(run.id);
        return now.length > 0 ? now : undefined;
      }, { timeoutMs: 30_000, what: "an item's approval" });
      for (const approval of pending) {
        await api.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "approve", digest: approval.digest });
        decided += 1;
      }
    }
    const finished = await api.waitForRun(run.id, ["succeeded", "failed", "cancelled"], 30_000);
    expect(finished.status, finished.error).toBe("succeeded");
    expect(finished.output.map((each: Json) => each.stdout.trim())).toEqual(["item-0", "item-1", "item-2"]);
    expect(finished.childRuns.map((child: Json) => [child.kind, child.item, child.status])).toEqual([
      ["for-each", 0, "succeeded"],
      ["for-each", 1, "succeeded"],
      ["for-each", 2, "succeeded"],
    ]);
    const item = await api.getRun(finished.childRuns[1].id);
    expect(item.loop).toMatchObject({ nodeId: "loop", index: 1, count: 3, item: { path: "b.txt" } });
    expect(item.sourceRun).toMatchObject({ id: run.id, kind: "for-each", nodeLabel: "Each file" });
    expect(item.definition.nodes.map((node: Json) => node.id)).toEqual(["show"]);

    // The runs list shows the loop's run; its items are listed under its step, or here when asked for by what started them.
    const listed = (await api.expect(200, "GET", `/api/runs?workflowId=${workflow.id}`)).runs as Json[];
    expect(listed.map((each) => each.id)).toEqual([run.id]);
    const items = (await api.expect(200, "GET", `/api/runs?workflowId=${workflow.id}&trigger=for-each`)).runs as Json[];
    expect(items.map((each) => each.id).sort()).toEqual(finished.childRuns.map((child: Json) => child.id).sort());
  });

  it("refuses to start a run of a loop whose list points nowhere (422), naming the step's field", async () => {
    const root = workFolder();
    const workflow = await api.createWorkflow(loopWorkflow("Broken loop", root, "{{ nodes.nowhere.data }}"));
    const refused = await api.request("POST", `/api/workflows/${workflow.id}/runs`, { inputs: {} });
    expect(refused.status).toBe(422);
    expect(refused.body.problems.map((problem: Json) => `${problem.nodeId}.${problem.field}`)).toContain("loop.list");
  });
});
