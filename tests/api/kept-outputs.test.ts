import { describe, expect, it } from "vitest";
import type { Json } from "./api-client";
import { setupStudioServer } from "./studio-server";

/**
 * Issue 32's "keep full outputs" over HTTP, on both databases: a result over the 1 MB a step stores is stored cut,
 * and, when its workflow keeps full outputs, downloadable whole while its run is kept; without the setting, or once
 * the run is deleted, there is nothing to download, and the answer says why.
 */

const server = setupStudioServer();
const ITEMS = 3_000;

/** Run inputs → a Code step returning ~3 MB of records (its text and its data: about 6 MB) → Output of their count. */
function bigResultWorkflow(name: string, keepFullOutputs?: unknown) {
  return {
    name,
    ...(keepFullOutputs === undefined ? {} : { keepFullOutputs }),
    nodes: [
      { id: "in", kind: "input", fields: [] },
      { id: "code", kind: "code", code: `return Array.from({ length: ${ITEMS} }, (_, index) => ({ index, text: "x".repeat(1000) }));` },
      { id: "out", kind: "output", value: "{{ nodes.code.data.length }}" },
    ],
    edges: [
      { id: "a", source: "in", target: "code" },
      { id: "b", source: "code", target: "out" },
    ],
  };
}

const codeStep = (run: Json) => run.steps.find((step: Json) => step.nodeId === "code");

describe("a step's whole result, kept", () => {
  it("is stored cut, downloadable whole while its run is kept, and gone with the run", async () => {
    const api = server.client();
    const workflow = await api.createWorkflow(bigResultWorkflow("Keeps its big results", true));
    const run = await api.waitForRun((await api.startRun(workflow.id)).id);
    expect(run.status, run.error).toBe("succeeded");
    const truncated = codeStep(run).output.truncated;
    expect(truncated.kept).toBe(true);
    expect(truncated.notice).toMatch(/^The result was 6\.\d MB, over the 1 MB a step stores; .* The whole result is kept: download it from the run page\.$/);
    // What later steps read is the stored part: its leading items.
    expect(codeStep(run).output.data.length).toBeLessThan(ITEMS);

    const download = await api.get(`/api/runs/${run.id}/steps/code/output`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toMatch(/^application\/json/);
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="run-${run.id}-code.json"`);
    expect(Buffer.byteLength(download.text)).toBe(truncated.totalBytes);
    const whole = download.body;
    expect(whole.data).toHaveLength(ITEMS);
    expect(whole.data[ITEMS - 1]).toEqual({ index: ITEMS - 1, text: "x".repeat(1000) });

    // A step whose result was stored whole has nothing more.
    const small = await api.get(`/api/runs/${run.id}/steps/out/output`);
    expect(small.status).toBe(404);
    expect(small.body.error).toMatch(/No whole result of step "out" is kept/);

    await api.expect(200, "DELETE", `/api/runs/${run.id}`);
    const gone = await api.get(`/api/runs/${run.id}/steps/code/output`);
    expect(gone.status).toBe(404);
  });

  it("is not kept for a workflow that does not ask, and the answer names the setting", async () => {
    const api = server.client();
    const workflow = await api.createWorkflow(bigResultWorkflow("Keeps only what it stores"));
    const run = await api.waitForRun((await api.startRun(workflow.id)).id);
    expect(run.status, run.error).toBe("succeeded");
    expect(codeStep(run).output.truncated.kept).toBeUndefined();
    const answer = await api.get(`/api/runs/${run.id}/steps/code/output`);
    expect(answer.status).toBe(404);
    expect(answer.body.error).toMatch(/Keep full outputs/);
    // A path that names no step cleanly is refused the same way, never read.
    expect((await api.get(`/api/runs/${run.id}/steps/..%2Fcode/output`)).status).toBe(404);
  });

  it("refuses a setting that is not true or false, naming it", async () => {
    const api = server.client();
    const refused = await api.post("/api/workflows", bigResultWorkflow("Keeps maybe", "yes"));
    expect(refused.status).toBe(422);
    expect(refused.body.issues).toContainEqual(expect.objectContaining({ path: "keepFullOutputs" }));
  });
});
