import { modelKey, ModelPriceSchema, type ModelKey, type ModelPrice } from "@/lib/contracts/model-prices";
import { getDatabase, type StudioDatabase } from "./database";
import { newId } from "./ids";

/**
 * The price table (ModelPrice): read whole (it holds a row per model someone
 * priced, a few dozen at most), replaced whole by the Settings page.
 */

const PRICE_COLUMNS = { provider: true, model: true, inputPerMillion: true, cachedInputPerMillion: true, outputPerMillion: true } as const;

export async function readModelPrices(database: StudioDatabase = getDatabase()): Promise<ModelPrice[]> {
  const rows = await database.modelPrice.findMany({ select: PRICE_COLUMNS, orderBy: [{ provider: "asc" }, { model: "asc" }] });
  return rows.map((row) => ModelPriceSchema.parse(row));
}

/** The prices of `models` alone (those priced). */
export async function readPricesOf(models: readonly ModelKey[], database: StudioDatabase = getDatabase()): Promise<ModelPrice[]> {
  if (models.length === 0) return [];
  const rows = await database.modelPrice.findMany({
    where: { OR: models.map(({ provider, model }) => ({ provider, model })) },
    select: PRICE_COLUMNS,
  });
  return rows.map((row) => ModelPriceSchema.parse(row));
}

/** What changed between two tables, in words for the security log ("added openai gpt-4.1: $2 in, $8 out"). */
export function describePriceChanges(before: readonly ModelPrice[], after: readonly ModelPrice[]): string[] {
  const said = (price: ModelPrice) =>
    `$${price.inputPerMillion} in${price.cachedInputPerMillion === null ? "" : `, $${price.cachedInputPerMillion} cached`}, $${price.outputPerMillion} out per million tokens`;
  const old = new Map(before.map((price) => [modelKey(price), price]));
  const next = new Map(after.map((price) => [modelKey(price), price]));
  const changes: string[] = [];
  for (const [key, price] of next) {
    const was = old.get(key);
    if (!was) changes.push(`added ${price.provider} ${price.model}: ${said(price)}`);
    else if (said(was) !== said(price)) changes.push(`changed ${price.provider} ${price.model}: ${said(was)} → ${said(price)}`);
  }
  for (const [key, price] of old) if (!next.has(key)) changes.push(`removed ${price.provider} ${price.model}`);
  return changes;
}

/** Replaces the whole table in one transaction; the table as it was, for the log. */
export async function replaceModelPrices(prices: readonly ModelPrice[], person: string, database: StudioDatabase = getDatabase()): Promise<ModelPrice[]> {
  const before = await readModelPrices(database);
  await database.$transaction([
    database.modelPrice.deleteMany({}),
    database.modelPrice.createMany({ data: prices.map((price) => ({ id: newId(), ...price, updatedBy: person })) }),
  ]);
  return before;
}

/** Models runs have used (any run, any time) that have no price: what the Settings page offers to fill in. */
export async function unpricedModels(database: StudioDatabase = getDatabase()): Promise<ModelKey[]> {
  const [used, prices] = await Promise.all([
    database.runModelUsage.groupBy({ by: ["provider", "model"], orderBy: [{ provider: "asc" }, { model: "asc" }] }),
    database.modelPrice.findMany({ select: { provider: true, model: true } }),
  ]);
  const priced = new Set(prices.map(modelKey));
  return used.filter((model) => !priced.has(modelKey(model))).map(({ provider, model }) => ({ provider, model }));
}
