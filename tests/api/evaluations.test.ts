import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from "../support/scripted-openai-server";
import { waitFor, type ApiClient, type Json } from "./api-client";
import { credentialHeaders } from "./credential";
import { chain, removeWorkFolders, shellNode, workFolder } from "./fixtures";
import { mostAtOnce } from "./most-at-once";
import { setupStudioServer } from "./studio-server";

/**
 * Evaluations over HTTP, on the real server: every dataset row a real run (trigger `evaluation`) through the gates of
 * any run, no more at once than the concurrency, scored by rule, by an LLM judge (the scripted OpenAI-compatible
 * server) and by custom code; bad input refused naming the field with nothing made; a cancel; and a kill in the
 * middle, after which every row still ends once.
 */

const server = setupStudioServer();
let model: ScriptedOpenAIServer;

beforeAll(async () => {
  model = await startScriptedOpenAIServer();
});

afterAll(async () => {
  await model?.close();
  removeWorkFolders();
});

const greeter = (name: string, greeting = "Hello") => ({
  name,
  nodes: [
    { id: "in", kind: "input", fields: [{ name: "who", type: "string", required: true }] },
    { id: "out", kind: "output", value: `${greeting} {{ inputs.who }}` },
  ],
  edges: chain("in", "out"),
});

/** Run inputs → a shell step (which asks a person: the workflow's default mode) → output. */
const gated = (name: string, folder: string) => ({
  name,
  nodes: [{ id: "in", kind: "input", fields: [{ name: "who", type: "string", required: true }] }, shellNode("shell", folder, "echo hi"), { id: "out", kind: "output", value: "Hello {{ inputs.who }}" }],
  edges: chain("in", "shell", "out"),
});

async function datasetOf(workflowId: string, lines: unknown[], name = "Rows"): Promise<string> {
  const response = await fetch(`${server.url}/api/workflows/${workflowId}/datasets?name=${encodeURIComponent(name)}&format=jsonl`, {
    method: "POST",
    headers: { ...credentialHeaders(server.client().credential), "content-type": "application/x-ndjson" },
    body: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as Json).dataset.id as string;
}

const people = (count: number) => Array.from({ length: count }, (_, index) => ({ inputs: { who: `P${index + 1}` }, expected: `Hello P${index + 1}` }));

async function finished(api: ApiClient, workflowId: string, evaluationId: string, timeoutMs = 90_000): Promise<Json> {
  return waitFor(
    async () => {
      const { evaluation } = await api.expect(200, "GET", `/api/workflows/${workflowId}/evaluations/${evaluationId}`);
      return evaluation.status === "running" ? undefined : (evaluation as Json);
    },
    { timeoutMs, what: `evaluation ${evaluationId} to end` },
  );
}

/** Approves every waiting approval, until `done` says to stop. */
async function approveUntil(api: ApiClient, done: () => Promise<boolean>): Promise<number> {
  let decided = 0;
  const answers: string[] = [];
  await waitFor(
    async () => {
      for (const approval of await api.pendingApprovals()) {
        const answer = await api.post(`/api/approvals/${approval.id}`, { decision: "approve", digest: approval.digest });
        if (answer.status === 200) decided += 1;
        else answers.push(`${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
      }
      return (await done()) ? true : undefined;
    },
    { timeoutMs: 120_000, what: () => `the approvals to be decided and the evaluation to end (${decided} decided; refused: ${answers.slice(0, 3).join(" | ")})` },
  );
  return decided;
}

describe("evaluations", () => {
  it("run every row as a real run, no more at once than the concurrency, and score each by its scorers", async () => {
    const api = server.client();
    const workflow = await api.createWorkflow(greeter("Evaluations: greeter"));
    const datasetId = await datasetOf(workflow.id, people(6));
    const scorers = [
      { kind: "exact", name: "exact" },
      { kind: "contains", name: "says Hello", text: "Hello" },
      { kind: "code", name: "names them", code: "return output.endsWith(inputs.who);" },
    ];
    const { evaluation } = await api.expect(201, "POST", `/api/workflows/${workflow.id}/evaluations`, { datasetId, scorers, concurrency: 2 });
    expect(evaluation).toMatchObject({ version: 1, draft: true, datasetName: "Rows", rowCount: 6, concurrency: 2 });

    const done = await finished(api, workflow.id, evaluation.id);
    expect(done.status).toBe("finished");
    expect(done.progress).toEqual({ pending: 0, running: 0, scored: 6, error: 0, cancelled: 0 });
    expect(done.averages).toEqual([
      { name: "exact", kind: "exact", average: 1, passed: 6, failed: 0, unscored: 0 },
      { name: "says Hello", kind: "contains", average: 1, passed: 6, failed: 0, unscored: 0 },
      { name: "names them", kind: "code", average: 1, passed: 6, failed: 0, unscored: 0 },
    ]);
    expect(done.results.map((result: Json) => result.output)).toEqual(["Hello P1", "Hello P2", "Hello P3", "Hello P4", "Hello P5", "Hello P6"]);
    for (const result of done.results) expect(result).toMatchObject({ status: "scored", runStatus: "succeeded", failedSteps: 0, inputTokens: 0, costMicros: null });

    // Each row's run is a real run, marked as the evaluation's; one per row.
    const runs = await Promise.all(done.results.map((result: Json) => api.getRun(result.runId)));
    expect(new Set(runs.map((run) => run.id)).size).toBe(6);
    for (const [index, run] of runs.entries()) expect(run.trigger).toEqual({ kind: "evaluation", nodeId: null, evaluation: { id: evaluation.id, row: index + 1 } });
    expect(mostAtOnce(runs)).toBeLessThanOrEqual(2);
    const listed = await api.expect(200, "GET", `/api/runs?trigger=evaluation&workflowId=${workflow.id}`);
    expect(listed.page.total).toBe(6);

    // Another version over the same dataset: what changed shows in its verdicts.
    await api.expect(200, "PUT", `/api/workflows/${workflow.id}`, greeter("Evaluations: greeter", "Hi"));
    const second = (await api.expect(201, "POST", `/api/workflows/${workflow.id}/evaluations`, { datasetId, scorers, version: 2, concurrency: 3 })).evaluation;
    const secondDone = await finished(api, workflow.id, second.id);
    expect(secondDone.averages.map((average: Json) => [average.name, average.average])).toEqual([
      ["exact", 0],
      ["says Hello", 0],
      ["names them", 1],
    ]);
    expect(secondDone.results[0].verdicts[0]).toEqual({ score: 0, passed: false, reason: "the output differs from the expected text" });
    const { evaluations } = await api.expect(200, "GET", `/api/workflows/${workflow.id}/evaluations`);
    expect(evaluations.map((each: Json) => [each.id, each.version, each.draft])).toEqual([
      [second.id, 2, false],
      [evaluation.id, 1, true],
    ]);
  });

  it("refuse bad input naming the field, and make nothing", async () => {
    const api = server.client();
    const workflow = await api.createWorkflow(greeter("Evaluations: bad input"));
    const datasetId = await datasetOf(workflow.id, people(2));
    const path = `/api/workflows/${workflow.id}/evaluations`;
    const refused = async (body: unknown, status = 422) => api.expect(status, "POST", path, body);
    const exact = { kind: "exact", name: "exact" };

    expect((await refused({ datasetId, scorers: [exact], concurrency: 11 })).issues.map((issue: Json) => issue.path)).toEqual(["concurrency"]);
    expect((await refused({ datasetId, scorers: [] })).issues.map((issue: Json) => issue.path)).toEqual(["scorers"]);
    expect((await refused({ datasetId, scorers: [exact, exact] })).issues.map((issue: Json) => issue.path)).toEqual(["scorers[1].name"]);
    expect((await refused({ datasetId, scorers: [{ kind: "regex", name: "r", pattern: "(" }] })).issues.map((issue: Json) => issue.path)).toEqual(["scorers[0].pattern"]);
    expect((await refused({ datasetId, scorers: [exact], version: 9 })).issues.map((issue: Json) => issue.path)).toEqual(["version"]);
    const code = await refused({ datasetId, scorers: [{ kind: "code", name: "c", code: "return (" }] });
    expect(code.issues.map((issue: Json) => issue.path)).toEqual(["scorers[0].code"]);
    const judge = await refused({ datasetId, scorers: [{ kind: "llm-judge", name: "j", rubric: "Polite.", model: { provider: "openai", model: "gpt-4.1-mini", apiKey: "${NO_SUCH_KEY}" } }] });
    expect(judge.issues.map((issue: Json) => issue.path)).toEqual(["scorers[0].model.apiKey"]);
    expect((await refused({ scorers: [exact] })).issues.map((issue: Json) => issue.path)).toEqual(["datasetId"]);
    expect((await refused({ datasetId: "01NOSUCHDATASET", scorers: [exact] }, 404)).error).toContain("No dataset");

    // A version with no output step gives nothing to score.
    await api.expect(200, "PUT", `/api/workflows/${workflow.id}`, { ...greeter("Evaluations: bad input"), nodes: [greeter("x").nodes[0]], edges: [] });
    const noOutput = await refused({ datasetId, scorers: [exact] });
    expect(noOutput.issues).toEqual([expect.objectContaining({ path: "version", message: expect.stringContaining("has no Output step") })]);
    expect((await api.expect(200, "GET", `${path}/preflight?version=draft`)).preflight.refusal).toContain("has no Output step");
    // A row the evaluated version cannot take (its input renamed) is named by its row.
    await api.expect(200, "PUT", `/api/workflows/${workflow.id}`, {
      ...greeter("Evaluations: bad input"),
      nodes: [{ id: "in", kind: "input", fields: [{ name: "person", type: "string", required: true }] }, { id: "out", kind: "output", value: "Hello" }],
    });
    const rows = await refused({ datasetId, scorers: [exact] });
    expect(rows.error).toMatch(/^The dataset has rows this version cannot run: datasetId: row 1: /);
    expect((await api.expect(200, "GET", path)).evaluations).toEqual([]);
  });

  it("go through the same gates as any run: a step that asks asks in every row, unless it is pinned", async () => {
    const api = server.client();
    const folder = workFolder("studio-evaluations-");
    const workflow = await api.createWorkflow(gated("Evaluations: gated", folder));
    const datasetId = await datasetOf(workflow.id, people(3));
    const preflight = (await api.expect(200, "GET", `/api/workflows/${workflow.id}/evaluations/preflight`)).preflight;
    expect(preflight).toEqual({ version: 1, asks: [{ nodeId: "shell", title: "“Run a Shell Command”" }], pinned: [], refusal: null });

    const { evaluation } = await api.expect(201, "POST", `/api/workflows/${workflow.id}/evaluations`, { datasetId, scorers: [{ kind: "exact", name: "exact" }], concurrency: 3 });
    const isDone = async () => (await api.expect(200, "GET", `/api/workflows/${workflow.id}/evaluations/${evaluation.id}`)).evaluation.status !== "running";
    expect(await approveUntil(api, isDone)).toBe(3);
    expect((await finished(api, workflow.id, evaluation.id)).averages[0].average).toBe(1);

    // Pinned: its pin stands in for it; nothing asks and nothing runs the command.
    await api.expect(200, "PUT", `/api/workflows/${workflow.id}/pins/shell`, { output: { content: "pinned" } });
    expect((await api.expect(200, "GET", `/api/workflows/${workflow.id}/evaluations/preflight`)).preflight).toMatchObject({ asks: [], pinned: [{ nodeId: "shell" }] });
    const pinned = (await api.expect(201, "POST", `/api/workflows/${workflow.id}/evaluations`, { datasetId, scorers: [{ kind: "exact", name: "exact" }] })).evaluation;
    const pinnedDone = await finished(api, workflow.id, pinned.id);
    expect(pinnedDone.progress.scored).toBe(3);
    const run = await api.getRun(pinnedDone.results[0].runId);
    expect(run.steps.find((step: Json) => step.nodeId === "shell")).toMatchObject({ status: "succeeded", carriedAs: "pin" });
    expect(run.approvals).toEqual([]);
  }, 180_000);

  it("are cancelled: no more rows start, the running rows' runs are cancelled; a second cancel is a 409", async () => {
    const api = server.client();
    const workflow = await api.createWorkflow(gated("Evaluations: cancelled", workFolder("studio-evaluations-")));
    const datasetId = await datasetOf(workflow.id, people(5));
    const { evaluation } = await api.expect(201, "POST", `/api/workflows/${workflow.id}/evaluations`, { datasetId, scorers: [{ kind: "exact", name: "exact" }], concurrency: 2 });
    const waiting = await waitFor(
      async () => {
        const { evaluation: now } = await api.expect(200, "GET", `/api/workflows/${workflow.id}/evaluations/${evaluation.id}`);
        const runIds = now.results.flatMap((result: Json) => (result.runId ? [result.runId as string] : []));
        // A row's run id is taken before its run is created: a run not there yet is not waiting yet (404), not an error.
        const statuses = await Promise.all(
          runIds.map(async (runId: string) => {
            const response = await api.request("GET", `/api/runs/${runId}`);
            return response.status === 404 ? null : (await api.getRun(runId)).status;
          }),
        );
        return statuses.length === 2 && statuses.every((status) => status === "awaiting_input") ? runIds : undefined;
      },
      { timeoutMs: 60_000, what: "two rows waiting for approval" },
    );
    const cancelled = (await api.expect(200, "POST", `/api/workflows/${workflow.id}/evaluations/${evaluation.id}/cancel`)).evaluation;
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.progress).toEqual({ pending: 0, running: 0, scored: 0, error: 0, cancelled: 5 });
    for (const runId of waiting) expect((await api.waitForRun(runId)).status).toBe("cancelled");
    await api.expect(409, "POST", `/api/workflows/${workflow.id}/evaluations/${evaluation.id}/cancel`);
  });

  it("score by an LLM judge, its reasoning kept, through a configured model", async () => {
    const api = server.client();
    const workflow = await api.createWorkflow(greeter("Evaluations: judged"));
    const datasetId = await datasetOf(workflow.id, people(2));
    const before = model.requests.length;
    model.script(
      { text: JSON.stringify({ reasoning: "Greets P1 by name.", score: 0.9 }) },
      { text: JSON.stringify({ reasoning: "Greets P2, but curtly.", score: 0.4 }) },
    );
    const judge = { kind: "llm-judge", name: "polite", rubric: "Greets the person by name, warmly.", threshold: 0.5, model: { provider: "openai_compatible", model: "judge-1", baseUrl: model.baseUrl } };
    const { evaluation } = await api.expect(201, "POST", `/api/workflows/${workflow.id}/evaluations`, { datasetId, scorers: [judge], concurrency: 1 });
    const done = await finished(api, workflow.id, evaluation.id);
    expect(done.results.map((result: Json) => result.verdicts[0])).toEqual([
      // With what each judgement took, as the model server counted it.
      { score: 0.9, passed: true, reason: "Greets P1 by name.", usage: { inputTokens: 10, outputTokens: 5 } },
      { score: 0.4, passed: false, reason: "Greets P2, but curtly.", usage: { inputTokens: 10, outputTokens: 5 } },
    ]);
    expect(done.averages[0]).toMatchObject({ average: 0.65, passed: 1, failed: 1 });
    const sent = model.requests.slice(before).map((request) => request.rawBody);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toContain("Greets the person by name, warmly.");
    expect(sent[0]).toContain("Hello P1");
  });

  it("end every row once when the server is killed in the middle and started again", async () => {
    const api = server.client();
    const workflow = await api.createWorkflow(gated("Evaluations: restarted", workFolder("studio-evaluations-")));
    const datasetId = await datasetOf(workflow.id, people(4));
    const { evaluation } = await api.expect(201, "POST", `/api/workflows/${workflow.id}/evaluations`, { datasetId, scorers: [{ kind: "exact", name: "exact" }], concurrency: 2 });
    const path = `/api/workflows/${workflow.id}/evaluations/${evaluation.id}`;
    // Two rows' runs wait for their approval; two rows wait for a slot.
    await waitFor(async () => ((await api.pendingApprovals()).filter((approval) => approval.workflowId === workflow.id).length === 2 ? true : undefined), {
      timeoutMs: 60_000,
      what: "two rows waiting for approval",
    });
    await server.kill("SIGKILL");
    await server.restart();
    const restarted = server.client();
    await approveUntil(restarted, async () => (await restarted.expect(200, "GET", path)).evaluation.status !== "running");
    const done = await finished(restarted, workflow.id, evaluation.id);
    expect(done.progress).toEqual({ pending: 0, running: 0, scored: 4, error: 0, cancelled: 0 });
    expect(done.averages[0].average).toBe(1);
    const runIds = done.results.map((result: Json) => result.runId as string);
    expect(new Set(runIds).size).toBe(4);
    // One run per row, no more: nothing was started twice across the restart.
    const listed = await restarted.expect(200, "GET", `/api/runs?trigger=evaluation&workflowId=${workflow.id}`);
    expect(listed.runs.map((run: Json) => run.id).sort()).toEqual([...runIds].sort());
  }, 300_000);
});
