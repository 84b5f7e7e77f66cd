import { describe, expect, it } from "vitest";
import { NO_USAGE } from "@/lib/contracts/usage";
import { runUsage, stepUsage } from "./run-usage";

const price = { provider: "openai" as const, model: "m", inputPerMillion: "1", cachedInputPerMillion: null, outputPerMillion: "3" };
const tokens = (input: number, output: number, model = "m") => ({ input, output, cached: 0, calls: 1, provider: "openai", model });

describe("the run view's tokens and cost", () => {
  it("prices a step's tokens with its model's price, and names a model without one", () => {
    expect(stepUsage(tokens(20, 10), [price])).toMatchObject({ inputTokens: 20, outputTokens: 10, costMicros: 50 });
    expect(stepUsage(tokens(20, 10, "other"), [price])).toMatchObject({ costMicros: null, unpricedModels: [{ provider: "openai", model: "other" }] });
  });

  it("sums the steps for the run, unless the page's stored figure knows of more calls", () => {
    const steps = { a: { agent: { text: "", lastTextTurn: 0, calls: [], tokens: tokens(20, 10) } }, b: {}, c: { agent: { text: "", lastTextTurn: 0, calls: [], tokens: tokens(1_000, 0) } } };
    expect(runUsage(steps, NO_USAGE, [price])).toMatchObject({ inputTokens: 1_020, outputTokens: 10, calls: 2, costMicros: 1_050 });
    const stored = { ...NO_USAGE, inputTokens: 9_000, calls: 5, costMicros: 9_000 };
    expect(runUsage(steps, stored, [price])).toBe(stored);
    expect(runUsage({}, NO_USAGE, [price])).toBe(NO_USAGE);
  });
});
