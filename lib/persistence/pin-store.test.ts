import { afterAll, describe, expect, it } from "vitest";
import type { WorkflowDefinitionInput } from "@/lib/workflow/definition";
import type { DatabaseProvider } from "./database-provider";
import { newestRunInputs, newestStepOutputs } from "./pin-store";
import { findRunnableVersion, insertRun } from "./run-queries";
import { openTempDatabase, type TempDatabase } from "./temp-database";
import { createWorkflow } from "./workflow-store";

const temps: TempDatabase[] = [];
afterAll(async () => {
  for (const temp of temps) await temp.close();
});

const DEFINITION: WorkflowDefinitionInput = {
  name: "sampled",
  nodes: [
    { id: "in", kind: "input", fields: [{ name: "n", type: "number", required: false }] },
    { id: "out", kind: "output", value: "{{ inputs.n }}" },
  ],
  edges: [{ id: "e", source: "in", target: "out" }],
};

describe.each<DatabaseProvider>(["sqlite", "postgresql"])("newest outputs on %s", (provider) => {
  it("takes each node's output from the newest run in which it succeeded, of this workflow only", async () => {
    const temp = await openTempDatabase({ provider });
    temps.push(temp);
    const database = temp.database;
    const workflow = await createWorkflow(DEFINITION, database);
    const other = await createWorkflow({ ...DEFINITION, name: "other" }, database);
    const version = await findRunnableVersion(workflow.id, undefined, database);
    const otherVersion = await findRunnableVersion(other.id, undefined, database);
    const finish = async (runId: string, nodeId: string, status: string, content: string | null) => {
      await database.step.update({
        where: { runId_nodeId: { runId, nodeId } },
        data: { status, output: content === null ? null : JSON.stringify({ content }), finishedAt: new Date() },
      });
    };
    // Oldest first; many runs in one millisecond, so the newest is told apart by its id as well as its time.
    const first = await insertRun(version, { n: 1 }, database);
    await finish(first.id, "out", "succeeded", "from the first run");
    const second = await insertRun(version, { n: 2 }, database);
    await finish(second.id, "out", "succeeded", "from the second run");
    const failedLater = await insertRun(version, { n: 3 }, database);
    await finish(failedLater.id, "out", "failed", null);
    const otherWorkflowsRun = await insertRun(otherVersion, { n: 4 }, database);
    await finish(otherWorkflowsRun.id, "out", "succeeded", "from another workflow");

    const found = await newestStepOutputs(workflow.id, ["out", "in"], database);
    expect(found.get("out")).toMatchObject({ runId: second.id, output: { content: "from the second run" } });
    // The run inputs node never succeeded with an output here: nothing to sample.
    expect(found.has("in")).toBe(false);
    expect(await newestRunInputs(workflow.id, database)).toEqual({ runId: failedLater.id, inputs: { n: 3 } });
  });
});
