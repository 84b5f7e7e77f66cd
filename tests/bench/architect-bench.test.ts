import { describe, expect, it } from "vitest";
import { catalogEntry } from "@/lib/server/tool-catalog";
import { allTools, secretsFromRecord, ToolPool } from "@/lib/tools";
import { scriptedModel } from "@/lib/workflow/agent/test-support";
import { validateWorkflow } from "@/lib/workflow/validate";
import { ARCHITECT_GOALS } from "../../bench/architect-goals";
import { runArchitectBench, scriptedAnswer, summarize } from "../../bench/architect-harness";

// The Architect's quality bench with the scripted model: it proves the harness (the goals, the checks of what each
// draft must hold, the figures), not a model. bench/architect.bench.ts runs it against a real provider when one is set.

const pool = new ToolPool(allTools());
const vocabulary = { tools: allTools().map(catalogEntry), secretNames: ["SHOP_DB", "SEARCH_KEY"] };
const secrets = secretsFromRecord({ SHOP_DB: "sqlite:///tmp/bench-shop.db", SEARCH_KEY: "bench-key" });
const validate = async (definition: unknown) => (await validateWorkflow(definition, { pool, secrets })).problems;

describe("the Architect's quality bench", () => {
  it("holds at least 30 goals, each with a trigger and the tools it must use", () => {
    expect(ARCHITECT_GOALS.length).toBeGreaterThanOrEqual(30);
    for (const goal of ARCHITECT_GOALS) expect(goal.requires.tools.length, goal.goal).toBeGreaterThan(0);
  });

  it("drafts every goal with the scripted model, finds what each must hold, and prints its figures", async () => {
    const outcomes = await runArchitectBench(ARCHITECT_GOALS, { vocabulary, validate, modelFor: (goal) => scriptedModel([{ text: scriptedAnswer(goal) }]) });
    const unsound = outcomes.filter((outcome) => !outcome.validFirst).map((outcome) => outcome.goal);
    expect(unsound).toEqual([]);
    expect(outcomes.every((outcome) => outcome.holds.trigger && outcome.holds.tools && outcome.holds.changes)).toBe(true);
    const lines = summarize(outcomes);
    expect(lines).toContain(`valid at the first try: ${ARCHITECT_GOALS.length}/${ARCHITECT_GOALS.length} (100 %)`);

    // The checks can fail: a draft without its schedule does not hold its trigger.
    const scheduled = ARCHITECT_GOALS.find((goal) => goal.requires.trigger === "schedule")!;
    const [unscheduled] = await runArchitectBench([scheduled], { vocabulary, validate, modelFor: () => scriptedModel([{ text: scriptedAnswer({ ...scheduled, requires: { ...scheduled.requires, trigger: "input" } }) }]) });
    expect(unscheduled!.holds.trigger).toBe(false);
  });
});
