import { z } from "zod";
import { ModelKeySchema } from "./model-prices";

/**
 * Tokens and cost: what agent steps' model calls used (summed from
 * node-model-usage events) and what that costs at today's prices
 * (lib/cost/model-cost.ts). Cost is in micro-dollars (millionths of a US
 * dollar), a whole number, so sums never drift.
 */

export const TokenCountsSchema = z.object({
  /** Tokens in, as the provider reported them (the cached ones among them). */
  inputTokens: z.number().int().nonnegative(),
  /** Of the tokens in, those read from the provider's cache. */
  cachedInputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  /** Model calls. */
  calls: z.number().int().nonnegative(),
});
export type TokenCounts = z.infer<typeof TokenCountsSchema>;

/** Tokens of one model. */
export const ModelTokenCountsSchema = TokenCountsSchema.extend(ModelKeySchema.shape);
export type ModelTokenCounts = z.infer<typeof ModelTokenCountsSchema>;

export const UsageSummarySchema = TokenCountsSchema.extend({
  /** What the priced models' tokens cost at today's prices, in micro-dollars; null when none of the models used has a price. */
  costMicros: z.number().int().nonnegative().nullable(),
  /** Models used that have no price (their tokens are in the counts, not in the cost). */
  unpricedModels: z.array(ModelKeySchema),
});
export type UsageSummary = z.infer<typeof UsageSummarySchema>;

/** Nothing used: a run without model calls, a filter without runs. */
export const NO_USAGE: UsageSummary = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, calls: 0, costMicros: null, unpricedModels: [] };
