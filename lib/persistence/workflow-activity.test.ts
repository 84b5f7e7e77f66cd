import { describe, expect, it } from "vitest";
import { BOTH_PROVIDERS, openBothDatabases } from "@/tests/support/both-databases";
import { replaceModelPrices } from "./model-price-store";
import { createRun } from "./run-queries";
import { activityDays, workflowActivity } from "./workflow-activity";
import { createWorkflow } from "./workflow-store";

/*
 * A workflow's activity per day, counted in SQL on both databases: runs by
 * outcome, the exact median of the finished ones' durations (odd and even
 * counts), tokens and cost per day, empty days as zeros.
 */

const databases = openBothDatabases();
const NOW = new Date("2026-12-05T12:00:00.000Z");

describe("activityDays", () => {
  it("lists the period's days oldest first, ending today (UTC)", () => {
    expect(activityDays(3, new Date("2026-03-01T00:30:00Z"))).toEqual(["2026-02-27", "2026-02-28", "2026-03-01"]);
    expect(activityDays(30, NOW)).toHaveLength(30);
  });
});

describe.each(BOTH_PROVIDERS)("workflow activity on %s", (provider) => {
  it.each(["aggregate", "window"] as const)("counts runs per day, the median duration (%s) and the cost, with empty days as zeros", async (median) => {
    const { database } = databases.get(provider)!;
    const workflow = await createWorkflow({ name: `Activity ${provider} ${median}`, nodes: [{ id: "in", kind: "input", fields: [] }, { id: "out", kind: "output", value: "done" }], edges: [] }, database);
    const other = await createWorkflow({ name: `Other ${provider} ${median}`, nodes: [{ id: "in", kind: "input", fields: [] }], edges: [] }, database);
    async function seed(workflowId: string, day: string, status: string, durationMs: number | null, trigger = "person") {
      const { runId } = await createRun(workflowId, {}, {}, database);
      const startedAt = new Date(`${day}T10:00:00.000Z`);
      await database.run.update({
        where: { id: runId },
        data: { status, trigger, createdAt: startedAt, startedAt, finishedAt: durationMs === null ? null : new Date(startedAt.getTime() + durationMs) },
      });
      return runId;
    }
    // 2026-12-01: three finished (median of 100, 300, 2,000 = 300) and one still running.
    await seed(workflow.id, "2026-12-01", "succeeded", 2_000);
    await seed(workflow.id, "2026-12-01", "failed", 100);
    const priced = await seed(workflow.id, "2026-12-01", "succeeded", 300);
    await seed(workflow.id, "2026-12-01", "running", null);
    // 2026-12-03: four finished (median of 10, 20, 40, 1,000 = 30), one cancelled among them.
    await seed(workflow.id, "2026-12-03", "succeeded", 1_000);
    await seed(workflow.id, "2026-12-03", "failed", 20);
    await seed(workflow.id, "2026-12-03", "cancelled", 40);
    const loopItem = await seed(workflow.id, "2026-12-03", "succeeded", 10, "for-each");
    await seed(workflow.id, "2026-12-03", "succeeded", 10);
    // Outside the period, and another workflow's: not counted.
    await seed(workflow.id, "2026-10-01", "succeeded", 5);
    await seed(other.id, "2026-12-01", "succeeded", 5);
    await database.runModelUsage.create({ data: { id: `${provider}-${median}-u1`, runId: priced, provider: "openai", model: "mini", inputTokens: 1_000_000, cachedInputTokens: 0, outputTokens: 0, calls: 2 } });
    await database.runModelUsage.create({ data: { id: `${provider}-${median}-u2`, runId: loopItem, provider: "openai", model: "mini", inputTokens: 0, cachedInputTokens: 0, outputTokens: 500_000, calls: 1 } });
    await replaceModelPrices([{ provider: "openai", model: "mini", inputPerMillion: "0.4", cachedInputPerMillion: null, outputPerMillion: "1.6" }], "ada", database);

    const activity = await workflowActivity(workflow.id, 30, database, NOW, median);
    expect(activity.days).toHaveLength(30);
    expect(activity.days.at(-1)!.day).toBe("2026-12-05");
    const byDay = new Map(activity.days.map((day) => [day.day, day]));
    expect(byDay.get("2026-12-01")).toMatchObject({ runs: 4, succeeded: 2, failed: 1, medianDurationMs: 300, usage: { inputTokens: 1_000_000, costMicros: 400_000 } });
    // The loop item's run is not among the runs, but its tokens are the workflow's spending.
    expect(byDay.get("2026-12-03")).toMatchObject({ runs: 4, succeeded: 2, failed: 1, medianDurationMs: 30, usage: { outputTokens: 500_000, costMicros: 800_000 } });
    expect(byDay.get("2026-12-02")).toEqual({ day: "2026-12-02", runs: 0, succeeded: 0, failed: 0, medianDurationMs: null, usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, calls: 0, costMicros: null, unpricedModels: [] } });
    expect(activity.total).toMatchObject({ runs: 8, succeeded: 4, failed: 2, usage: { calls: 3, costMicros: 1_200_000 } });
  });
});
