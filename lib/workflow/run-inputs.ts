import { z } from "zod";
import type { InputField, WorkflowDefinition } from "./definition";

/** The fields a run of this workflow asks for (its input node's), or none. */
/** One empty list for every workflow without run inputs, so the schema built for it is built once. */
const NO_FIELDS: InputField[] = [];

export function inputFieldsOf(definition: WorkflowDefinition): InputField[] {
  return definition.nodes.find((node) => node.kind === "input")?.fields ?? NO_FIELDS;
}

/** Schemas by the fields they were built from: a stored definition's fields never change, and every run and delivery checks them. */
const schemasByFields = new WeakMap<readonly InputField[], z.ZodType<Record<string, unknown>>>();

/**
 * The zod schema of a run's inputs, built from the input node, so the run
 * form, the API and the CLI check inputs the same way. Numbers and booleans
 * given as text (a CLI `--input n=3`) are converted.
 */
export function runInputsSchema(fields: readonly InputField[]): z.ZodType<Record<string, unknown>> {
  let built = schemasByFields.get(fields);
  if (!built) {
    built = buildRunInputsSchema(fields);
    schemasByFields.set(fields, built);
  }
  return built;
}

function buildRunInputsSchema(fields: readonly InputField[]): z.ZodType<Record<string, unknown>> {
  const shape: Record<string, z.ZodType> = {};
  for (const field of fields) {
    let schema: z.ZodType;
    switch (field.type) {
      case "number":
        schema = z.preprocess((value) => (typeof value === "string" && value.trim() !== "" ? Number(value) : value), z.number().finite());
        break;
      case "boolean":
        schema = z.preprocess((value) => (value === "true" ? true : value === "false" ? false : value), z.boolean());
        break;
      default:
        schema = z.string().max(1_000_000);
    }
    if (field.default !== undefined) schema = schema.default(field.default as never);
    else if (!field.required) schema = schema.optional();
    shape[field.name] = field.description ? schema.describe(field.description) : schema;
  }
  return z.object(shape).strict() as unknown as z.ZodType<Record<string, unknown>>;
}
