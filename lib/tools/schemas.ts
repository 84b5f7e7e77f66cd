import { z } from "zod";
import type { JsonSchema } from "./json-schema";
import type { Tool } from "./tool";

export type { JsonSchema };

/** A function schema as sent to a model every turn. */
export interface ModelToolSchema {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

/** JSON Schema of a zod model as a caller fills it in (defaults make fields optional). */
export function toInputJsonSchema(model: z.ZodType): JsonSchema {
  const schema = z.toJSONSchema(model, { io: "input", unrepresentable: "any" }) as JsonSchema;
  delete schema.$schema;
  return schema;
}

/** The settings form of a tool, or `null` when there is nothing to configure. */
export function settingsJsonSchema(tool: Tool): JsonSchema | null {
  return tool.settingsModel ? toInputJsonSchema(tool.settingsModel) : null;
}

/** The input schema of one operation (or of the tool itself), without the given fields. */
export function operationInputJsonSchema(tool: Tool, operation: string | null, hidden: readonly string[] = []): JsonSchema {
  if (operation && tool.operations?.[operation]) return withoutFields(toInputJsonSchema(tool.operations[operation].inputModel), hidden);
  return withoutFields(tool.inputJsonSchema ?? toInputJsonSchema(tool.inputModel), hidden);
}

/**
 * What a model sees of a tool: its name, description and input schema, with
 * secret inputs and builder-bound arguments removed. A tool with operations
 * is flattened to one object with an `operation` enum, since model APIs
 * require an object at the top; each call is re-validated against the chosen
 * operation's own model.
 *
 * @example
 *   modelToolSchema(pool.get("sql")!, ["dsn"]).inputSchema.properties // { operation, table, sql, limit }
 */
export function modelToolSchema(tool: Tool, bound: readonly string[] = []): ModelToolSchema {
  const hidden = [...new Set([...tool.secretInputs, ...bound])];
  if (!tool.operations) {
    const inputSchema = tool.inputJsonSchema ?? toInputJsonSchema(tool.inputModel);
    return { name: tool.name, description: tool.description, inputSchema: withoutFields(inputSchema, hidden) };
  }
  const properties: Record<string, JsonSchema> = {};
  const usedBy = new Map<string, string[]>();
  for (const [name, operation] of Object.entries(tool.operations)) {
    const schema = withoutFields(toInputJsonSchema(operation.inputModel), hidden);
    const operationRequired = new Set((schema.required as string[] | undefined) ?? []);
    for (const [field, fieldSchema] of Object.entries((schema.properties as Record<string, JsonSchema>) ?? {})) {
      properties[field] ??= { ...fieldSchema };
      usedBy.set(field, [...(usedBy.get(field) ?? []), operationRequired.has(field) ? `${name} (required)` : name]);
    }
  }
  for (const [field, operations] of usedBy) {
    const fieldSchema = properties[field]!;
    const note = `Used by: ${operations.join(", ")}.`;
    fieldSchema.description = fieldSchema.description ? `${String(fieldSchema.description)} ${note}` : note;
  }
  const operationList = Object.entries(tool.operations)
    .map(([name, operation]) => `${name}: ${operation.description}`)
    .join(" ");
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: {
      type: "object",
      properties: {
        operation: { type: "string", enum: Object.keys(tool.operations), description: `What to do. ${operationList}` },
        ...properties,
      },
      required: ["operation"],
      additionalProperties: false,
    },
  };
}

function withoutFields(schema: JsonSchema, hidden: readonly string[]): JsonSchema {
  if (hidden.length === 0 || typeof schema.properties !== "object" || schema.properties === null) return schema;
  const properties = { ...(schema.properties as Record<string, unknown>) };
  for (const field of hidden) delete properties[field];
  const required = Array.isArray(schema.required) ? (schema.required as string[]).filter((field) => !hidden.includes(field)) : undefined;
  const result: JsonSchema = { ...schema, properties };
  if (required) result.required = required;
  return result;
}
