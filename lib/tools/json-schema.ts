// Below tool-base.ts and schemas.ts, which both name it (schemas.ts reads tools, so a tool cannot read it back).

/** A JSON Schema object, as produced by `z.toJSONSchema`. */
export type JsonSchema = { [key: string]: unknown };
