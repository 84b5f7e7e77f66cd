import { STUDIO_CURRENCY, type ModelPriceOverview, type ModelPriceTable } from "@/lib/contracts/model-prices";
import { recordAudit } from "@/lib/persistence/audit-store";
import { describePriceChanges, readModelPrices, replaceModelPrices, unpricedModels } from "@/lib/persistence/model-price-store";
import { clientAddress, type Principal } from "./access/principal";
import { startStudio } from "./studio";

/**
 * The price table's route (app/api/settings/model-prices): read it with the
 * models runs used that have no price yet, and replace it (recorded in the
 * security log: a price changes what every run is said to cost).
 */

export async function modelPriceOverview(): Promise<ModelPriceOverview> {
  const { database } = await startStudio();
  const [prices, unpriced] = await Promise.all([readModelPrices(database), unpricedModels(database)]);
  return { currency: STUDIO_CURRENCY, prices, unpricedModels: unpriced };
}

export async function changeModelPrices(request: Request, principal: Principal, table: ModelPriceTable): Promise<ModelPriceOverview> {
  const { database } = await startStudio();
  const before = await replaceModelPrices(table.prices, principal.person, database);
  const changes = describePriceChanges(before, table.prices);
  if (changes.length > 0) {
    await recordAudit(
      { actor: principal.person, actorId: principal.personId, action: "model-prices-changed", target: null, detail: { changes }, clientAddress: clientAddress(request) },
      database,
    );
  }
  return modelPriceOverview();
}
