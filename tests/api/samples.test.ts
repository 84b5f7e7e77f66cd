import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, type Json } from "./api-client";
import { BYPASS, chain, removeWorkFolders, shellNode, workFolder } from "./fixtures";
import { setupStudioServer } from "./studio-server";

/**
 * The samples the editor maps fields from, on the built server over HTTP
 * (SQLite and PostgreSQL): each node's pin, else its newest run output, marked
 * with where it came from; the newest run's inputs; a stored secret's value
 * masked wherever it turned up; and the refusals, naming their field.
 */

const PLANTED = "sample-secret-4d2e81";

const server = setupStudioServer();
let api: ApiClient;

beforeAll(() => {
  api = server.client();
});

afterAll(() => {
  removeWorkFolders();
});

function workflow(root: string) {
  return {
    name: `Samples ${path.basename(root)}`,
    ...BYPASS,
    nodes: [
      { id: "in", kind: "input", fields: [{ name: "city", required: false, default: "Lahore" }] },
      shellNode("first", root, "printf one"),
      shellNode("second", root, "echo 'got {{ nodes.first.data.stdout }} in {{ inputs.city }}'"),
    ],
    edges: chain("in", "first", "second"),
  };
}

const samplesOf = async (workflowId: string, query = "") => (await api.expect(200, "GET", `/api/workflows/${workflowId}/samples${query}`)).samples;
const byNode = (samples: Json) => Object.fromEntries(samples.nodes.map((sample: Json) => [sample.nodeId, sample]));

describe("GET /api/workflows/{id}/samples", () => {
  it("answers each node's pin, else its newest run output, with where it came from, secrets masked", async () => {
    const { id } = await api.createWorkflow(workflow(workFolder()));
    expect(await samplesOf(id)).toEqual({ nodes: [], inputs: null });

    expect((await api.post("/api/secrets", { name: "SAMPLE_TOKEN", value: PLANTED })).status).toBe(201);
    const run = await api.waitForRun((await api.startRun(id, { city: `Quetta ${PLANTED}` })).id);
    expect(run.status, run.error).toBe("succeeded");

    const fromRun = await samplesOf(id);
    expect(JSON.stringify(fromRun)).not.toContain(PLANTED);
    expect(fromRun.inputs).toEqual({ runId: run.id, values: { city: "Quetta ••••••" } });
    const nodes = byNode(fromRun);
    expect(Object.keys(nodes).sort()).toEqual(["first", "in", "second"]);
    expect(nodes.first).toMatchObject({ source: { kind: "run", runId: run.id }, content: expect.stringContaining("one"), data: { stdout: "one" } });
    expect(nodes.second.data.stdout.trim()).toBe("got one in Quetta ••••••");

    // A pin comes first, as it does in a test run.
    await api.expect(200, "PUT", `/api/workflows/${id}/pins/first`, { output: { content: "pinned", data: { rows: [{ name: "Ada" }] } } });
    const pinned = byNode(await samplesOf(id));
    expect(pinned.first).toEqual({ nodeId: "first", source: { kind: "pin", fromRunId: null, pinnedAt: expect.any(String) }, content: "pinned", data: { rows: [{ name: "Ada" }] } });
    expect(pinned.second.source).toEqual({ kind: "run", runId: run.id, finishedAt: expect.any(String) });

    // Only the nodes asked for.
    expect((await samplesOf(id, "?nodeIds=first,nowhere")).nodes.map((sample: Json) => sample.nodeId)).toEqual(["first"]);
  });

  it("refuses a node id that cannot be one, naming nodeIds, and an unknown workflow with 404", async () => {
    const { id } = await api.createWorkflow(workflow(workFolder()));
    const refused = await api.request("GET", `/api/workflows/${id}/samples?nodeIds=first,${encodeURIComponent("not an id!")}`);
    expect(refused.status).toBe(422);
    expect(refused.body.issues).toEqual([expect.objectContaining({ path: expect.stringMatching(/^nodeIds/) })]);
    const tooMany = await api.request("GET", `/api/workflows/${id}/samples?nodeIds=${Array.from({ length: 201 }, (_, index) => `n${index}`).join(",")}`);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.issues).toEqual([expect.objectContaining({ path: "nodeIds", message: expect.stringContaining("at most 200") })]);
    expect((await api.request("GET", "/api/workflows/no-such-workflow/samples")).status).toBe(404);
  });
});
