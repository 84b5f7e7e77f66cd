import { ModelPriceTableSchema } from "@/lib/contracts/model-prices";
import { json, readBody, route } from "@/lib/server/http";
import { changeModelPrices, modelPriceOverview } from "@/lib/server/model-prices";

export const dynamic = "force-dynamic";

/** The price table (US dollars per million tokens, per provider and model) and the models used without a price. */
export const GET = route("GET /api/settings/model-prices", async () => json(await modelPriceOverview()));

/** Replaces the whole table: { prices: [{ provider, model, inputPerMillion, cachedInputPerMillion, outputPerMillion }] }, prices as decimal text; 422 naming the field otherwise. */
export const PUT = route("PUT /api/settings/model-prices", async (request, _context, principal) =>
  json(await changeModelPrices(request, principal, await readBody(request, ModelPriceTableSchema))),
);
