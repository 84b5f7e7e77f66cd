import { describe, expect, it } from "vitest";
import { allTools } from "@/lib/tools";
import { operationInputJsonSchema, settingsJsonSchema } from "@/lib/tools/schemas";
import { describeSchema, type FieldDescriptor, type JsonSchema } from "./field-descriptors";
import { zodFromJsonSchema } from "./zod-schema";

/** A value a person could sensibly enter for a field. */
function sensible(field: FieldDescriptor): unknown {
  if (field.defaultValue !== undefined) return field.defaultValue;
  switch (field.widget) {
    case "checkbox":
      return true;
    case "number":
      return field.minimum ?? 1;
    case "select":
      return field.options[0];
    case "list":
      return [sensible(field.item!)];
    case "record":
      return { NAME: sensible(field.item!) };
    case "object":
      return sensibleObject(field.fields);
    case "object-list":
      return [sensibleObject(field.fields)];
    case "json":
      return { any: "value" };
    default:
      if (field.key === "jobId") return "job-1";
      return "value";
  }
}

function sensibleObject(fields: readonly FieldDescriptor[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((field) => [field.key, sensible(field)]));
}

/** A value of the wrong type for the first field. */
function wrong(field: FieldDescriptor): unknown {
  return field.widget === "text" || field.widget === "textarea" || field.widget === "directory" || field.widget === "select" ? 42 : "not this";
}

const cases: { name: string; schema: JsonSchema }[] = allTools().flatMap((tool) => {
  const settings = settingsJsonSchema(tool);
  const operations = tool.operations ? Object.keys(tool.operations) : [null];
  return [
    ...(settings ? [{ name: `${tool.name} settings`, schema: settings }] : []),
    ...operations.map((operation) => ({
      name: `${tool.name} ${operation ?? "input"}`,
      schema: operationInputJsonSchema(tool, operation, tool.secretInputs),
    })),
  ];
});

describe("every built-in tool's schemas convert with z.fromJSONSchema", () => {
  it("has schemas to check", () => {
    expect(cases.length).toBeGreaterThan(15);
  });

  it.each(cases)("$name", ({ schema }) => {
    const zod = zodFromJsonSchema(schema);
    expect(zodFromJsonSchema(schema)).toBe(zod);
    const fields = describeSchema(schema);
    const valid = sensibleObject(fields);
    const parsed = zod.safeParse(valid);
    expect(parsed.error?.issues ?? []).toEqual([]);

    const required = fields.filter((field) => field.required);
    if (required.length > 0) {
      // A required field left out, and one of the wrong type, are both refused.
      expect(zod.safeParse({}).success).toBe(false);
      const first = required[0]!;
      expect(zod.safeParse({ ...valid, [first.key]: wrong(first) }).success).toBe(false);
    } else {
      const first = fields.find((field) => field.widget !== "json");
      if (first) expect(zod.safeParse({ ...valid, [first.key]: wrong(first) }).success).toBe(false);
      else expect(zod.safeParse("not an object").success).toBe(false);
    }
  });

  it("settings with a directory field use the directory picker", () => {
    const readFile = allTools().find((tool) => tool.name === "read_file")!;
    const fields = describeSchema(settingsJsonSchema(readFile));
    expect(fields.find((field) => field.key === "root")).toMatchObject({ widget: "directory", required: true, label: "Folder" });
  });
});
