import { modelKey, PRICE_DECIMALS, type ModelKey, type ModelPrice } from "@/lib/contracts/model-prices";
import type { ModelTokenCounts, TokenCounts, UsageSummary } from "@/lib/contracts/usage";

/**
 * Cost arithmetic, exact: a price ("2.5" dollars per million tokens) becomes
 * whole micro-dollars per million tokens (2_500_000n), tokens times that is
 * whole pico-dollars (10^-12 $), and only the final sum is rounded (half up)
 * to micro-dollars. BigInt throughout, so a million runs add up to the same
 * cost in any order and 0.1 + 0.2 never comes into it.
 *
 * Tokens in include the cached ones (the AI SDK's usage reports them so): the
 * cached ones cost the cached price where one is set, else the input price.
 */

const UNITS_PER_DOLLAR = 10n ** BigInt(PRICE_DECIMALS);
const PICOS_PER_MICRO = 1_000_000n;

/** "2.5" dollars -> 2_500_000n micro-dollars (the text is a validated price, lib/contracts/model-prices.ts). */
export function priceMicros(text: string): bigint {
  const [whole = "0", fraction = ""] = text.split(".");
  return BigInt(whole) * UNITS_PER_DOLLAR + BigInt(fraction.padEnd(PRICE_DECIMALS, "0").slice(0, PRICE_DECIMALS) || "0");
}

/** What `tokens` of one model cost at `price`, in pico-dollars (unrounded). */
export function costPicos(tokens: Pick<TokenCounts, "inputTokens" | "cachedInputTokens" | "outputTokens">, price: ModelPrice): bigint {
  // A provider that reports more cached than input tokens is taken at its word for the cached ones, none else.
  const cached = BigInt(tokens.cachedInputTokens);
  const uncached = BigInt(Math.max(0, tokens.inputTokens - tokens.cachedInputTokens));
  const input = priceMicros(price.inputPerMillion);
  const cachedPrice = price.cachedInputPerMillion === null ? input : priceMicros(price.cachedInputPerMillion);
  return uncached * input + cached * cachedPrice + BigInt(tokens.outputTokens) * priceMicros(price.outputPerMillion);
}

/** Pico-dollars to whole micro-dollars, half up. */
export function picosToMicros(picos: bigint): number {
  return Number((picos + PICOS_PER_MICRO / 2n) / PICOS_PER_MICRO);
}

/** The price table as a lookup by (provider, model). */
export function priceLookup(prices: readonly ModelPrice[]): ReadonlyMap<string, ModelPrice> {
  return new Map(prices.map((price) => [modelKey(price), price]));
}

/** Tokens per model summed, and their cost at `prices` (rounded once, at the end). */
export function summariseUsage(rows: readonly ModelTokenCounts[], prices: ReadonlyMap<string, ModelPrice>): UsageSummary {
  let picos = 0n;
  let priced = false;
  const unpriced = new Map<string, ModelKey>();
  const totals = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, calls: 0 };
  for (const row of rows) {
    totals.inputTokens += row.inputTokens;
    totals.cachedInputTokens += row.cachedInputTokens;
    totals.outputTokens += row.outputTokens;
    totals.calls += row.calls;
    const price = prices.get(modelKey(row));
    if (price) {
      picos += costPicos(row, price);
      priced = true;
    } else if (row.calls > 0 || row.inputTokens + row.outputTokens > 0) {
      unpriced.set(modelKey(row), { provider: row.provider, model: row.model });
    }
  }
  return { ...totals, costMicros: priced ? picosToMicros(picos) : null, unpricedModels: [...unpriced.values()] };
}
