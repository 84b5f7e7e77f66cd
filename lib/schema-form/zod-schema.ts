import { z } from "zod";
import { withoutProperties, type JsonSchema } from "./field-descriptors";

const cache = new WeakMap<JsonSchema, Map<string, z.ZodType>>();

/**
 * `z.fromJSONSchema(schema)`, converted once per schema object (and per set
 * of properties left out), since a form re-renders on every keystroke.
 */
export function zodFromJsonSchema(schema: JsonSchema, leftOut: readonly string[] = []): z.ZodType {
  const key = [...leftOut].sort().join("\u0000");
  let bySet = cache.get(schema);
  if (!bySet) {
    bySet = new Map();
    cache.set(schema, bySet);
  }
  let converted = bySet.get(key);
  if (!converted) {
    converted = z.fromJSONSchema(withoutProperties(schema, leftOut) as Parameters<typeof z.fromJSONSchema>[0]);
    bySet.set(key, converted);
  }
  return converted;
}
