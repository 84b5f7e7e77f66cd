import { afterAll, describe, expect, it } from "vitest";
import { DATASET_FILE_MAX_BYTES } from "@/lib/contracts/evaluation-dataset";
import type { Json } from "./api-client";
import { credentialHeaders } from "./credential";
import { chain, removeWorkFolders } from "./fixtures";
import { setupStudioServer } from "./studio-server";

/**
 * Evaluation datasets over HTTP: made from a CSV or JSON Lines file checked against the workflow's inputs (every bad
 * row named by its line, nothing made of a file with one), from past runs, listed, read and deleted.
 */

const server = setupStudioServer();

afterAll(() => removeWorkFolders());

const greeter = (name: string) => ({
  name,
  nodes: [
    { id: "in", kind: "input", fields: [{ name: "who", type: "string", required: true }, { name: "times", type: "number", required: false, default: 1 }] },
    { id: "out", kind: "output", value: "Hello {{ inputs.who }}" },
  ],
  edges: chain("in", "out"),
});

async function upload(workflowId: string, query: string, body: string | Uint8Array<ArrayBuffer>): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${server.url}/api/workflows/${workflowId}/datasets?${query}`, {
    method: "POST",
    headers: { ...credentialHeaders(server.client().credential), "content-type": "text/csv" },
    body,
  });
  return { status: response.status, body: (await response.json()) as Json };
}

describe("evaluation datasets", () => {
  it("are made from a CSV file, each row's values as a run takes them, and read back in order", async () => {
    const api = server.client();
    const workflow = await api.createWorkflow(greeter("Datasets: CSV"));
    const made = await upload(workflow.id, "name=Greetings&format=csv", 'who,times,expected\nAda,2,Hello Ada\n"Grace, Admiral",,Hello Grace\nLinus,3,\n');
    expect(made.status).toBe(201);
    expect(made.body.dataset).toMatchObject({ name: "Greetings", source: "csv", rowCount: 3, expectedCount: 2, workflowId: workflow.id });
    const { dataset } = await api.expect(200, "GET", `/api/workflows/${workflow.id}/datasets/${made.body.dataset.id}`);
    expect(dataset.rows).toEqual([
      { position: 1, inputs: { who: "Ada", times: 2 }, expected: "Hello Ada", sourceRunId: null },
      { position: 2, inputs: { who: "Grace, Admiral", times: 1 }, expected: "Hello Grace", sourceRunId: null },
      { position: 3, inputs: { who: "Linus", times: 3 }, sourceRunId: null },
    ]);
    expect((await api.expect(200, "GET", `/api/workflows/${workflow.id}/datasets`)).datasets.map((each: Json) => each.name)).toEqual(["Greetings"]);
    // The name is the workflow's to give once.
    const again = await upload(workflow.id, "name=Greetings&format=csv", "who\nBob\n");
    expect(again.status).toBe(409);
    expect(again.body.error).toContain("already has a dataset named “Greetings”");
  });

  it("refuse a file with bad rows, naming each by its line and field, and make nothing", async () => {
    const api = server.client();
    const workflow = await api.createWorkflow(greeter("Datasets: bad rows"));
    const refused = await upload(workflow.id, "name=Broken&format=jsonl", ['{"inputs":{"who":"Ada"}}', '{"inputs":{"times":2}}', "{oops", '{"inputs":{"who":"Bo","colour":"red"}}'].join("\n"));
    expect(refused.status).toBe(422);
    expect(refused.body.issues.map((issue: Json) => issue.path)).toEqual(["rows[2].who", "rows[3]", "rows[4].colour"]);
    expect(refused.body.error).toMatch(/^The file has rows this workflow cannot run: line 2: who is required; line 3: is not JSON/);
    expect((await api.expect(200, "GET", `/api/workflows/${workflow.id}/datasets`)).datasets).toEqual([]);

    const badQuery = await upload(workflow.id, "name=&format=xlsx", "who\nAda\n");
    expect(badQuery.status).toBe(422);
    expect(badQuery.body.issues.map((issue: Json) => issue.path).sort()).toEqual(["format", "name"]);
  });

  it("refuse a file over the limit, saying the limit, before reading it all", async () => {
    const api = server.client();
    const workflow = await api.createWorkflow(greeter("Datasets: too large"));
    const big = new Uint8Array(DATASET_FILE_MAX_BYTES + 1024).fill(0x61);
    const refused = await upload(workflow.id, "name=Huge&format=csv", big);
    expect(refused.status).toBe(413);
    expect(refused.body.error).toContain("larger than 20.0 MB");
    expect((await api.expect(200, "GET", `/api/workflows/${workflow.id}/datasets`)).datasets).toEqual([]);
  });

  it("are made from past runs: their inputs as rows, a succeeded run's output as expected; another workflow's run is a 404", async () => {
    const api = server.client();
    const workflow = await api.createWorkflow(greeter("Datasets: from runs"));
    const other = await api.createWorkflow(greeter("Datasets: someone else's"));
    const first = await api.startRun(workflow.id, { who: "Ada" });
    const second = await api.startRun(workflow.id, { who: "Bo", times: 2 });
    const elsewhere = await api.startRun(other.id, { who: "Eve" });
    for (const run of [first, second, elsewhere]) await api.waitForRun(run.id);

    const { dataset } = await api.expect(201, "POST", `/api/workflows/${workflow.id}/datasets/from-runs`, { name: "Past", runIds: [second.id, first.id] });
    expect(dataset).toMatchObject({ source: "runs", rowCount: 2, expectedCount: 2 });
    const read = (await api.expect(200, "GET", `/api/workflows/${workflow.id}/datasets/${dataset.id}`)).dataset;
    expect(read.rows).toEqual([
      { position: 1, inputs: { who: "Bo", times: 2 }, expected: "Hello Bo", sourceRunId: second.id },
      { position: 2, inputs: { who: "Ada", times: 1 }, expected: "Hello Ada", sourceRunId: first.id },
    ]);
    const foreign = await api.expect(404, "POST", `/api/workflows/${workflow.id}/datasets/from-runs`, { name: "Foreign", runIds: [elsewhere.id] });
    expect(foreign.error).toContain(elsewhere.id);
    // A dataset is its workflow's: read or deleted through another's path it does not exist.
    await api.expect(404, "GET", `/api/workflows/${other.id}/datasets/${dataset.id}`);
    await api.expect(404, "DELETE", `/api/workflows/${other.id}/datasets/${dataset.id}`);
    await api.expect(204, "DELETE", `/api/workflows/${workflow.id}/datasets/${dataset.id}`);
    await api.expect(404, "GET", `/api/workflows/${workflow.id}/datasets/${dataset.id}`);
  });
});
