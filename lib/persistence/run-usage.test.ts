import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/workflow/run-types";
import { BOTH_PROVIDERS, openBothDatabases } from "@/tests/support/both-databases";
import { replaceModelPrices, unpricedModels } from "./model-price-store";
import { createRun, getRunDetail, listRuns } from "./run-queries";
import { PrismaRunStore } from "./run-store";
import { createWorkflow } from "./workflow-store";

/*
 * A run's tokens per model are kept with the commits that store its
 * node-model-usage events, summed per run and per filter in SQL, and priced at
 * today's prices when read: on both databases, through their hot paths.
 */

const providers = BOTH_PROVIDERS;
const databases = openBothDatabases();

const at = "2026-12-01T08:00:00.000Z";
function usageEvent(runId: string, seq: number, model: string, inputTokens: number, outputTokens: number, cachedInputTokens?: number): RunEvent {
  return {
    runId,
    seq,
    type: "node-model-usage",
    nodeId: "agent",
    payload: { turn: seq, provider: "openai", model, inputTokens, outputTokens, ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }) },
    createdAt: at,
  } as RunEvent;
}

describe.each(providers)("tokens and cost on %s", (provider) => {
  it("sums each commit's model calls per run and model, and prices them when read", async () => {
    const { database } = databases.get(provider)!;
    const workflow = await createWorkflow({ name: `Usage ${provider}`, nodes: [{ id: "in", kind: "input", fields: [] }, { id: "out", kind: "output", value: "done" }], edges: [] }, database);
    const store = new PrismaRunStore(database);
    const first = (await createRun(workflow.id, {}, {}, database)).runId;
    const second = (await createRun(workflow.id, {}, {}, database)).runId;
    const none = (await createRun(workflow.id, {}, {}, database)).runId;
    // Two commits for the first run, two models in the second commit; the second run fails.
    await store.commit(first, { steps: [], events: [usageEvent(first, 1, "mini", 1_000, 100, 400), usageEvent(first, 2, "mini", 2_000, 200)] });
    await store.commit(first, { run: { status: "succeeded", finishedAt: at }, steps: [], events: [usageEvent(first, 3, "mini", 1_000, 100, 600), usageEvent(first, 4, "big", 10, 1)] });
    await store.commit(second, { run: { status: "failed", error: "no", finishedAt: at }, steps: [], events: [usageEvent(second, 1, "mini", 500_000, 50_000)] });
    await store.commit(none, { run: { status: "succeeded", finishedAt: at }, steps: [], events: [{ runId: none, seq: 1, type: "run-started", nodeId: null, payload: { inputs: {} }, createdAt: at } as RunEvent] });

    const rows = await database.runModelUsage.findMany({ where: { runId: first }, orderBy: { model: "asc" } });
    expect(rows.map(({ model, inputTokens, cachedInputTokens, outputTokens, calls }) => ({ model, inputTokens, cachedInputTokens, outputTokens, calls }))).toEqual([
      { model: "big", inputTokens: 10, cachedInputTokens: 0, outputTokens: 1, calls: 1 },
      { model: "mini", inputTokens: 4_000, cachedInputTokens: 1_000, outputTokens: 400, calls: 3 },
    ]);

    // No price: tokens, no cost, the models named.
    const unpriced = await listRuns({ workflowId: workflow.id }, null, database);
    expect(unpriced.usage).toMatchObject({ inputTokens: 504_010, cachedInputTokens: 1_000, outputTokens: 50_401, calls: 5, costMicros: null });
    expect(unpriced.usage.unpricedModels).toHaveLength(2);
    expect((await unpricedModels(database)).map((model) => model.model).sort()).toEqual(["big", "mini"]);

    // mini: $0.4 in, $0.1 cached, $1.6 out per million; "big" stays unpriced.
    await replaceModelPrices([{ provider: "openai", model: "mini", inputPerMillion: "0.4", cachedInputPerMillion: "0.1", outputPerMillion: "1.6" }], "ada", database);
    const listed = await listRuns({ workflowId: workflow.id }, null, database);
    const byId = new Map(listed.items.map((run) => [run.id, run.usage]));
    // first: 3,000 × 0.4 + 1,000 × 0.1 + 400 × 1.6 = 1,200 + 100 + 640 = 1,940 micro-dollars
    expect(byId.get(first)).toMatchObject({ inputTokens: 4_010, outputTokens: 401, calls: 4, costMicros: 1_940, unpricedModels: [{ provider: "openai", model: "big" }] });
    // second: 500,000 × 0.4 + 50,000 × 1.6 = 200,000 + 80,000
    expect(byId.get(second)).toMatchObject({ costMicros: 280_000, unpricedModels: [] });
    expect(byId.get(none)).toEqual({ inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, calls: 0, costMicros: null, unpricedModels: [] });
    expect(listed.usage.costMicros).toBe(281_940);
    // The total follows the filter, not the page.
    expect((await listRuns({ workflowId: workflow.id, status: "failed" }, null, database)).usage).toMatchObject({ inputTokens: 500_000, costMicros: 280_000 });
    expect((await listRuns({ workflowId: workflow.id, limit: 1 }, null, database)).usage.costMicros).toBe(281_940);

    const detail = await getRunDetail(first, database);
    expect(detail.usage.costMicros).toBe(1_940);
    expect(detail.modelPrices).toEqual([{ provider: "openai", model: "mini", inputPerMillion: "0.4", cachedInputPerMillion: "0.1", outputPerMillion: "1.6" }]);

    // Deleted with its run.
    await database.run.delete({ where: { id: second } });
    expect(await database.runModelUsage.count({ where: { runId: second } })).toBe(0);
  });
});
