import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ModelPriceOverviewSchema } from "@/lib/contracts/model-prices";
import { RunDetailSchema } from "@/lib/contracts/run";
import { RunListResponseSchema } from "@/lib/contracts/run-list";
import { WorkflowActivitySchema } from "@/lib/contracts/workflow-activity";
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from "../support/scripted-openai-server";
import { ApiClient, conform, type Json } from "./api-client";
import { edge, removeWorkFolders } from "./fixtures";
import { setupStudioServer } from "./studio-server";

/**
 * Tokens and cost over HTTP on the built server (both databases): the price
 * table (empty by default, 422 naming the field, the security log), an agent's
 * runs against the scripted OpenAI-compatible server with no price and then
 * with one, in the runs list (per run and the filter's total), a run's detail
 * and the workflow's activity.
 */

const server = setupStudioServer();
let api: ApiClient;
let model: ScriptedOpenAIServer;

beforeAll(async () => {
  model = await startScriptedOpenAIServer();
  api = server.client();
});

afterAll(async () => {
  await model?.close();
  removeWorkFolders();
});

const row = { provider: "openai", model: "gpt-4.1-mini", inputPerMillion: "0.4", cachedInputPerMillion: null, outputPerMillion: "1.6" };

describe("tokens and cost", () => {
  it("keeps an empty price table by default and refuses a bad one naming the field, storing nothing", async () => {
    const initial = await api.expect(200, "GET", "/api/settings/model-prices");
    conform(ModelPriceOverviewSchema, initial, "GET /api/settings/model-prices");
    expect(initial).toMatchObject({ currency: "USD", prices: [] });
    const cases: [unknown, string][] = [
      [{ prices: [{ ...row, inputPerMillion: "-1" }] }, "prices[0].inputPerMillion"],
      [{ prices: [{ ...row, outputPerMillion: 1.6 }] }, "prices[0].outputPerMillion"],
      [{ prices: [{ ...row, cachedInputPerMillion: "0.1234567" }] }, "prices[0].cachedInputPerMillion"],
      [{ prices: [{ ...row, provider: "acme" }] }, "prices[0].provider"],
      [{ prices: [{ ...row, model: " " }] }, "prices[0].model"],
      [{ prices: [row, { ...row }] }, "prices[1].model"],
      [{ prices: [{ ...row, currency: "EUR" }] }, "prices[0].currency"],
    ];
    for (const [body, field] of cases) {
      const response = await api.request("PUT", "/api/settings/model-prices", body);
      expect(response.status, response.text).toBe(422);
      expect((response.body.issues as Json[]).map((issue) => issue.path), response.text).toContain(field);
    }
    expect((await api.expect(200, "GET", "/api/settings/model-prices")).prices).toEqual([]);
  });

  it("counts an agent's tokens per run, prices them once a price is set, and totals them for the filter and per day", async () => {
    const workflow = await api.createWorkflow({
      name: "Priced agent",
      nodes: [
        { id: "in", kind: "input", fields: [] },
        { id: "agent", kind: "agent", provider: "openai_compatible", model: "scripted-priced", baseUrl: model.baseUrl, task: "Say done.", maxTurns: 3 },
        { id: "out", kind: "output", value: "{{ nodes.agent.output }}" },
      ],
      edges: [edge("in", "agent"), edge("agent", "out")],
    });
    const runIds: string[] = [];
    for (let index = 0; index < 2; index += 1) {
      // One model call each: the scripted server reports 10 tokens in and 5 out.
      model.script({ text: "Done." });
      const run = await api.startRun(workflow.id, {});
      expect((await api.waitForRun(run.id)).status).toBe("succeeded");
      runIds.push(run.id);
    }

    const unpriced = await api.expect(200, "GET", `/api/runs?workflowId=${workflow.id}`);
    conform(RunListResponseSchema, unpriced, "GET /api/runs");
    expect(unpriced.usage).toEqual({ inputTokens: 20, cachedInputTokens: 0, outputTokens: 10, calls: 2, costMicros: null, unpricedModels: [{ provider: "openai_compatible", model: "scripted-priced" }] });
    expect((await api.expect(200, "GET", "/api/settings/model-prices")).unpricedModels).toContainEqual({ provider: "openai_compatible", model: "scripted-priced" });

    // $1,000 per million in, $2,000 out: 10 × 0.001 + 5 × 0.002 = $0.02 a run.
    const saved = await api.expect(200, "PUT", "/api/settings/model-prices", {
      prices: [row, { provider: "openai_compatible", model: "scripted-priced", inputPerMillion: "1000.00", cachedInputPerMillion: null, outputPerMillion: "2000" }],
    });
    expect(saved.prices).toContainEqual({ provider: "openai_compatible", model: "scripted-priced", inputPerMillion: "1000", cachedInputPerMillion: null, outputPerMillion: "2000" });
    expect(saved.unpricedModels).not.toContainEqual({ provider: "openai_compatible", model: "scripted-priced" });
    const log = await api.expect(200, "GET", "/api/audit?action=model-prices-changed");
    expect(JSON.stringify(log.entries)).toContain("added openai_compatible scripted-priced: $1000 in, $2000 out per million tokens");

    const priced = await api.expect(200, "GET", `/api/runs?workflowId=${workflow.id}&limit=1`);
    expect(priced.runs).toHaveLength(1);
    expect(priced.runs[0].usage).toMatchObject({ inputTokens: 10, outputTokens: 5, calls: 1, costMicros: 20_000, unpricedModels: [] });
    // The total is the filter's, not the page's.
    expect(priced.usage).toMatchObject({ calls: 2, costMicros: 40_000 });

    const detail = (await api.expect(200, "GET", `/api/runs/${runIds[0]}`)).run;
    conform(RunDetailSchema, detail, "GET /api/runs/{id}");
    expect(detail.usage.costMicros).toBe(20_000);
    expect(detail.modelPrices).toEqual([{ provider: "openai_compatible", model: "scripted-priced", inputPerMillion: "1000", cachedInputPerMillion: null, outputPerMillion: "2000" }]);

    const activity = await api.expect(200, "GET", `/api/workflows/${workflow.id}/activity`);
    conform(WorkflowActivitySchema, activity, "GET /api/workflows/{id}/activity");
    expect(activity.days).toHaveLength(30);
    expect(activity.days.at(-1)).toMatchObject({ day: new Date().toISOString().slice(0, 10), runs: 2, succeeded: 2, failed: 0, usage: { costMicros: 40_000 } });
    expect(activity.total).toMatchObject({ runs: 2, usage: { inputTokens: 20, outputTokens: 10, costMicros: 40_000 } });
    const bad = await api.request("GET", `/api/workflows/${workflow.id}/activity?days=0`);
    expect(bad.status, bad.text).toBe(422);
    expect((bad.body.issues as Json[]).map((issue) => issue.path)).toContain("days");
    await api.expect(404, "GET", "/api/workflows/no-such-workflow/activity");
  });
});
