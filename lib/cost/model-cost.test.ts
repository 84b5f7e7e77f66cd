import { describe, expect, it } from "vitest";
import { ModelPriceSchema, ModelPriceTableSchema, type ModelPrice } from "@/lib/contracts/model-prices";
import { formatCost, formatTokenCount } from "./format-cost";
import { costPicos, priceLookup, priceMicros, picosToMicros, summariseUsage } from "./model-cost";

const price = (input: string, output: string, cached: string | null = null): ModelPrice =>
  ModelPriceSchema.parse({ provider: "openai", model: "gpt-4.1-mini", inputPerMillion: input, cachedInputPerMillion: cached, outputPerMillion: output });

describe("prices", () => {
  it("are exact whole micro-dollars per million tokens", () => {
    expect(priceMicros("2.5")).toBe(2_500_000n);
    expect(priceMicros("0.000001")).toBe(1n);
    expect(priceMicros("15")).toBe(15_000_000n);
    expect(priceMicros("0.1")).toBe(100_000n);
  });

  it("are canonical text whatever way they were written", () => {
    expect(price("2.50", "010.0").inputPerMillion).toBe("2.5");
    expect(price("2.50", "010.0").outputPerMillion).toBe("10");
  });

  it("refuse what is not a price, naming the field", () => {
    for (const bad of [0.5, "-1", "1e-7", "abc", "1.1234567", "", "1234567"]) {
      const result = ModelPriceSchema.safeParse({ provider: "openai", model: "m", inputPerMillion: bad, cachedInputPerMillion: null, outputPerMillion: "1" });
      expect(result.success, String(bad)).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(["inputPerMillion"]);
    }
  });

  it("list each model once", () => {
    const row = { provider: "openai", model: "m", inputPerMillion: "1", cachedInputPerMillion: null, outputPerMillion: "1" };
    const result = ModelPriceTableSchema.safeParse({ prices: [row, { ...row, model: " m " }] });
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([["prices", 1, "model"]]);
  });
});

describe("cost", () => {
  it("prices cached input tokens apart when a cached price is set, as input otherwise", () => {
    const tokens = { inputTokens: 1_000_000, cachedInputTokens: 400_000, outputTokens: 100_000 };
    // 600k × $2 + 400k × $0.5 + 100k × $8 = 1.2 + 0.2 + 0.8 = $2.20
    expect(picosToMicros(costPicos(tokens, price("2", "8", "0.5")))).toBe(2_200_000);
    // All 1M in at $2 + $0.8 out
    expect(picosToMicros(costPicos(tokens, price("2", "8")))).toBe(2_800_000);
  });

  it("does not drift: a hundred thousand small calls add up to the cost of their sum", () => {
    const perCall = { provider: "openai", model: "gpt-4.1-mini", inputTokens: 3, cachedInputTokens: 0, outputTokens: 1, calls: 1 };
    const prices = priceLookup([price("0.1", "0.3")]);
    const rows = Array.from({ length: 100_000 }, () => perCall);
    // 300k tokens in × $0.1/M + 100k out × $0.3/M = $0.03 + $0.03 exactly (adding 0.0000003 in floating point drifts).
    expect(summariseUsage(rows, prices).costMicros).toBe(60_000);
  });

  it("rounds only the sum, half up", () => {
    // 1 token at $0.4/M = 0.4 micro-dollars: alone rounds to 0, three together to 1 (1.2).
    const one = { provider: "openai", model: "gpt-4.1-mini", inputTokens: 1, cachedInputTokens: 0, outputTokens: 0, calls: 1 };
    const prices = priceLookup([price("0.4", "0")]);
    expect(summariseUsage([one], prices).costMicros).toBe(0);
    expect(summariseUsage([one, one, one], prices).costMicros).toBe(1);
    expect(picosToMicros(500_000n)).toBe(1);
    expect(picosToMicros(499_999n)).toBe(0);
  });

  it("never guesses: a model without a price is named, and costs nothing it is charged for", () => {
    const rows = [
      { provider: "openai", model: "gpt-4.1-mini", inputTokens: 1_000_000, cachedInputTokens: 0, outputTokens: 0, calls: 2 },
      { provider: "anthropic", model: "claude-x", inputTokens: 500, cachedInputTokens: 0, outputTokens: 20, calls: 1 },
    ];
    expect(summariseUsage(rows, priceLookup([]))).toEqual({ inputTokens: 1_000_500, cachedInputTokens: 0, outputTokens: 20, calls: 3, costMicros: null, unpricedModels: [
      { provider: "openai", model: "gpt-4.1-mini" },
      { provider: "anthropic", model: "claude-x" },
    ] });
    const partly = summariseUsage(rows, priceLookup([price("1.25", "5")]));
    expect(partly.costMicros).toBe(1_250_000);
    expect(partly.unpricedModels).toEqual([{ provider: "anthropic", model: "claude-x" }]);
  });
});

describe("formatting", () => {
  it("shows cents from a cent up, the micro-dollars below", () => {
    expect(formatCost(3_410_000)).toBe("$3.41");
    expect(formatCost(3_414_999)).toBe("$3.41");
    expect(formatCost(3_415_000)).toBe("$3.42");
    expect(formatCost(1_234_567_890)).toBe("$1,234.57");
    expect(formatCost(30)).toBe("$0.00003");
    expect(formatCost(9_999)).toBe("$0.009999");
    expect(formatCost(0)).toBe("$0.00");
  });

  it("shortens large token counts", () => {
    expect(formatTokenCount(950)).toBe("950");
    expect(formatTokenCount(9_999)).toBe("9,999");
    expect(formatTokenCount(12_345)).toBe("12.3 k");
    expect(formatTokenCount(1_200_000)).toBe("1.2 M");
    expect(formatTokenCount(250_000_000)).toBe("250 M");
  });
});
