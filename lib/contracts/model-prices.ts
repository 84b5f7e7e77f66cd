import { z } from "zod";
import { AgentProviderSchema } from "@/nodes/agent/definition";

/**
 * What models cost (Settings → Model prices): per (provider, model), prices
 * per million tokens in the studio's one currency, US dollars. Empty by
 * default and never guessed: a model without a price shows its tokens and "no
 * price set", never a made-up cost. Prices are decimal text, so the cost
 * arithmetic (lib/cost/model-cost.ts) works in exact integer units.
 */

/** The studio's currency: every price and every cost is in it. */
export const STUDIO_CURRENCY = "USD";

/** More is a typo: the dearest models cost hundreds of dollars per million tokens, not millions. */
const MAX_WHOLE_DIGITS = 6;
/** A millionth of a dollar per million tokens is finer than any provider's price list. */
export const PRICE_DECIMALS = 6;

const PRICE_PATTERN = new RegExp(`^\\d{1,${MAX_WHOLE_DIGITS}}(\\.\\d{1,${PRICE_DECIMALS}})?$`);
const PRICE_MESSAGE = `must be a price in US dollars per million tokens, such as 2.50 (at most ${MAX_WHOLE_DIGITS} digits before the point and ${PRICE_DECIMALS} after)`;

/** "2.50", "2.5" and 2.5 are the same price, kept as "2.5": a price read back is the price saved. */
function canonicalPrice(text: string): string {
  const [whole = "0", fraction = ""] = text.split(".");
  const trimmedFraction = fraction.replace(/0+$/, "");
  const trimmedWhole = whole.replace(/^0+(?=\d)/, "");
  return trimmedFraction === "" ? trimmedWhole : `${trimmedWhole}.${trimmedFraction}`;
}

/** A price per million tokens as decimal text ("2.50"; text, not a JSON number, so no binary fraction ever rounds it), made canonical. */
export const PriceTextSchema = z.string(PRICE_MESSAGE).trim().regex(PRICE_PATTERN, PRICE_MESSAGE).transform(canonicalPrice);

export const ModelPriceSchema = z.strictObject({
  provider: AgentProviderSchema,
  model: z.string().trim().min(1, "name the model, as the Agent step names it").max(200),
  inputPerMillion: PriceTextSchema.describe("US dollars per million input tokens (cached ones too, unless priced apart)"),
  /** Null: cached input tokens cost as input tokens. */
  cachedInputPerMillion: PriceTextSchema.nullable().describe("US dollars per million cached input tokens; null = as input tokens"),
  outputPerMillion: PriceTextSchema.describe("US dollars per million output tokens"),
});
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

/** A model as the price table and usage name it. */
export const ModelKeySchema = z.object({ provider: z.string(), model: z.string() });
export type ModelKey = z.infer<typeof ModelKeySchema>;

/** The key of a (provider, model) in maps. */
export function modelKey(model: ModelKey): string {
  return `${model.provider}\n${model.model}`;
}

/** PUT /api/settings/model-prices: the whole table, replacing what was there (each model once). */
export const ModelPriceTableSchema = z
  .strictObject({ prices: z.array(ModelPriceSchema).max(1000) })
  .superRefine((table, context) => {
    const seen = new Set<string>();
    table.prices.forEach((price, index) => {
      const key = modelKey(price);
      if (seen.has(key)) context.addIssue({ code: "custom", path: ["prices", index, "model"], message: `is listed twice for ${price.provider}; keep one row per model` });
      seen.add(key);
    });
  });
export type ModelPriceTable = z.infer<typeof ModelPriceTableSchema>;

/** GET /api/settings/model-prices (and the answer of its PUT). */
export const ModelPriceOverviewSchema = z.object({
  currency: z.literal(STUDIO_CURRENCY),
  prices: z.array(ModelPriceSchema),
  /** Models runs have used that have no price yet: what to fill in. */
  unpricedModels: z.array(ModelKeySchema),
});
export type ModelPriceOverview = z.infer<typeof ModelPriceOverviewSchema>;

/** The Settings form: text boxes in (an empty cached price = as input), the same table and messages out as the API's. */
export const ModelPriceFormSchema = z
  .strictObject({
    prices: z.array(
      z.strictObject({
        provider: AgentProviderSchema,
        model: z.string(),
        inputPerMillion: z.string(),
        cachedInputPerMillion: z.string().transform((text) => (text.trim() === "" ? null : text)),
        outputPerMillion: z.string(),
      }),
    ),
  })
  .pipe(ModelPriceTableSchema);
export type ModelPriceFormValues = z.input<typeof ModelPriceFormSchema>;

/** A table as the form's text boxes show it. */
export function modelPriceFormValues(prices: ModelPrice[]): ModelPriceFormValues {
  return { prices: prices.map((price) => ({ ...price, cachedInputPerMillion: price.cachedInputPerMillion ?? "" })) };
}
