import { randomUUID } from "node:crypto";
import { modelKey } from "@/lib/contracts/model-prices";
import type { ModelTokenCounts } from "@/lib/contracts/usage";
import type { RunEvent } from "@/lib/workflow/run-types";

/*
 * A run's tokens per model (RunModelUsage), kept with the commit that stores
 * its node-model-usage events: same transaction, so the sums and the events
 * never disagree, and no round trip of its own (one upsert per model in the
 * commit, usually one, none for the many commits without a model call).
 */

/** The model calls among `events`, summed per (provider, model). */
export function usageOfEvents(events: readonly RunEvent[]): ModelTokenCounts[] {
  const byModel = new Map<string, ModelTokenCounts>();
  for (const event of events) {
    if (event.type !== "node-model-usage") continue;
    const { provider, model, inputTokens, outputTokens, cachedInputTokens = 0 } = event.payload;
    const key = modelKey({ provider, model });
    const sum = byModel.get(key) ?? { provider, model, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, calls: 0 };
    byModel.set(key, { ...sum, inputTokens: sum.inputTokens + inputTokens, cachedInputTokens: sum.cachedInputTokens + cachedInputTokens, outputTokens: sum.outputTokens + outputTokens, calls: sum.calls + 1 });
  }
  return [...byModel.values()];
}

/** The same on SQLite and PostgreSQL: adds to the run's row for the model, making it at the model's first call. */
const ADD_USAGE = `INSERT INTO "RunModelUsage" ("id", "runId", "provider", "model", "inputTokens", "cachedInputTokens", "outputTokens", "calls")
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT ("runId", "provider", "model") DO UPDATE SET
    "inputTokens" = "RunModelUsage"."inputTokens" + excluded."inputTokens",
    "cachedInputTokens" = "RunModelUsage"."cachedInputTokens" + excluded."cachedInputTokens",
    "outputTokens" = "RunModelUsage"."outputTokens" + excluded."outputTokens",
    "calls" = "RunModelUsage"."calls" + excluded."calls"`;

/** The statements that add a commit's model calls to its run's usage rows (none without model calls). */
export function usageWrites(runId: string, events: readonly RunEvent[]): { sql: string; values: unknown[] }[] {
  return usageOfEvents(events).map((usage) => ({
    sql: ADD_USAGE,
    values: [randomUUID(), runId, usage.provider, usage.model, usage.inputTokens, usage.cachedInputTokens, usage.outputTokens, usage.calls],
  }));
}
