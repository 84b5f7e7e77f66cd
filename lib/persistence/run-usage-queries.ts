import type { ModelPrice } from "@/lib/contracts/model-prices";
import { modelKey } from "@/lib/contracts/model-prices";
import type { ModelTokenCounts, UsageSummary } from "@/lib/contracts/usage";
import { NO_USAGE } from "@/lib/contracts/usage";
import type { WorkflowDefinition } from "@/lib/workflow/definition";
import { priceLookup, summariseUsage } from "@/lib/cost/model-cost";
import { getDatabase, type StudioDatabase } from "./database";
import type { Prisma } from "./generated/sqlite/client";
import { readPricesOf } from "./model-price-store";

/**
 * Tokens and cost of runs, read from RunModelUsage: per run for a page of
 * runs, and summed in SQL (per model, a handful of rows) for every run a
 * filter matches, whatever their number. Cost is priced here, at today's
 * prices: tokens per model times the model's price (lib/cost/model-cost.ts).
 */

const COUNTS = { inputTokens: true, cachedInputTokens: true, outputTokens: true, calls: true } as const;

/** Each run's usage per model, for `runIds` (a page of a list). */
export async function usageOfRuns(runIds: readonly string[], database: StudioDatabase = getDatabase()): Promise<Map<string, ModelTokenCounts[]>> {
  const byRun = new Map<string, ModelTokenCounts[]>();
  if (runIds.length === 0) return byRun;
  const rows = await database.runModelUsage.findMany({ where: { runId: { in: [...runIds] } }, select: { runId: true, provider: true, model: true, ...COUNTS } });
  for (const { runId, ...usage } of rows) byRun.set(runId, [...(byRun.get(runId) ?? []), usage]);
  return byRun;
}

/** Every run `where` matches, summed per model by the database. */
export async function usageOfMatchingRuns(where: Prisma.RunWhereInput, database: StudioDatabase = getDatabase()): Promise<ModelTokenCounts[]> {
  const groups = await database.runModelUsage.groupBy({ by: ["provider", "model"], where: { run: where }, _sum: COUNTS });
  return groups.map((group) => ({
    provider: group.provider,
    model: group.model,
    inputTokens: Number(group._sum.inputTokens ?? 0),
    cachedInputTokens: Number(group._sum.cachedInputTokens ?? 0),
    outputTokens: Number(group._sum.outputTokens ?? 0),
    calls: Number(group._sum.calls ?? 0),
  }));
}

/** Today's prices of the models in `usages` (one read for all of them). */
export async function pricesFor(usages: Iterable<readonly ModelTokenCounts[]>, database: StudioDatabase = getDatabase()): Promise<ModelPrice[]> {
  const models = new Map<string, { provider: string; model: string }>();
  for (const rows of usages) for (const row of rows) models.set(modelKey(row), { provider: row.provider, model: row.model });
  return readPricesOf([...models.values()], database);
}

/**
 * Today's prices of the models a run's agent steps name (used or not yet: a running run's steps price their tokens
 * as they come) and of those its usage rows name.
 */
export async function runModelPrices(definition: WorkflowDefinition, used: readonly ModelTokenCounts[], database: StudioDatabase = getDatabase()): Promise<ModelPrice[]> {
  const named = definition.nodes.flatMap((node) => (node.kind === "agent" ? [{ provider: node.provider, model: node.model, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, calls: 0 }] : []));
  return pricesFor([used, named], database);
}

/** A run's (or a total's) usage priced; nothing used reads as NO_USAGE. */
export function pricedUsage(rows: readonly ModelTokenCounts[] | undefined, prices: readonly ModelPrice[]): UsageSummary {
  return rows && rows.length > 0 ? summariseUsage(rows, priceLookup(prices)) : NO_USAGE;
}
