import type { ModelPrice } from "@/lib/contracts/model-prices";
import type { ModelTokenCounts, UsageSummary } from "@/lib/contracts/usage";
import { priceLookup, summariseUsage } from "@/lib/cost/model-cost";
import type { AgentActivity } from "./agent-activity";

/*
 * Tokens and cost as the run view shows them while events arrive: a step's
 * from its agent activity, the run's from all its steps', priced with the
 * run's models' prices (RunDetail.modelPrices) by the same arithmetic the
 * server uses (lib/cost/model-cost.ts).
 */

function countsOf(tokens: NonNullable<AgentActivity["tokens"]>): ModelTokenCounts {
  return { provider: tokens.provider, model: tokens.model, inputTokens: tokens.input, cachedInputTokens: tokens.cached, outputTokens: tokens.output, calls: tokens.calls };
}

/** One agent step's tokens and cost. */
export function stepUsage(tokens: NonNullable<AgentActivity["tokens"]>, prices: readonly ModelPrice[]): UsageSummary {
  return summariseUsage([countsOf(tokens)], priceLookup(prices));
}

/**
 * The run's tokens and cost: its steps' as the events tell them, or what the
 * page was given (`stored`, from the database) when the events seen so far
 * tell less (a big run's page leaves early events out).
 */
export function runUsage(steps: Readonly<Record<string, { agent?: AgentActivity | undefined }>>, stored: UsageSummary, prices: readonly ModelPrice[]): UsageSummary {
  const rows = Object.values(steps).flatMap((step) => (step.agent?.tokens ? [countsOf(step.agent.tokens)] : []));
  const calls = rows.reduce((sum, row) => sum + row.calls, 0);
  return calls >= stored.calls && calls > 0 ? summariseUsage(rows, priceLookup(prices)) : stored;
}
