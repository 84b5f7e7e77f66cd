import { mkdtempSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { allTools, AutoApproveIOHandler, createToolContext, operationInputJsonSchema, type Tool } from "@/lib/tools";

/**
 * Every built-in, fed garbage the way a confused model would send it: each
 * call must come back as a ToolResult.error naming the field, never throw.
 */
const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "bad-input-")));
const context = () => createToolContext({ io: new AutoApproveIOHandler(), settings: { root }, permissions: { mode: "bypass" } });

const NOT_AN_OBJECT: unknown[] = ["read the file please", 42, [1, 2, 3], true];

/** A value of the wrong JSON type for a property schema. */
function wrongValueFor(schema: { type?: unknown; enum?: unknown }): unknown {
  if (Array.isArray(schema.enum)) return "not-one-of-the-choices";
  switch (schema.type) {
    case "string":
      return { not: "a string" };
    case "number":
    case "integer":
      return "not a number";
    case "boolean":
      return "maybe";
    case "array":
      return "not a list";
    case "object":
      return 5;
    default:
      return undefined;
  }
}

/** One call per (operation, field): that field set to a value of the wrong type. */
function wrongTypeCalls(tool: Tool): { field: string; args: Record<string, unknown> }[] {
  const operations = tool.operations ? Object.keys(tool.operations) : [null];
  return operations.flatMap((operation) => {
    const schema = operationInputJsonSchema(tool, operation, tool.secretInputs);
    const properties = (schema.properties ?? {}) as Record<string, { type?: unknown; enum?: unknown }>;
    return Object.entries(properties).flatMap(([field, property]) => {
      const value = wrongValueFor(property);
      if (value === undefined) return [];
      return [{ field, args: { ...(operation ? { operation } : {}), [field]: value } }];
    });
  });
}

describe.each(allTools().map((tool) => [tool.name, tool] as const))("%s with bad input", (_name, tool) => {
  it("refuses arguments that are not an object", async () => {
    for (const args of NOT_AN_OBJECT) {
      const result = await tool.run(args, context());
      expect(result.isError, `${tool.name} accepted ${JSON.stringify(args)}`).toBe(true);
      expect(result.content).toContain("expected an object of named arguments");
    }
  });

  it("names each field given a value of the wrong type", async () => {
    const calls = wrongTypeCalls(tool);
    expect(calls.length).toBeGreaterThan(0);
    for (const { field, args } of calls) {
      const result = await tool.run(args, context());
      expect(result.isError, `${tool.name} accepted ${JSON.stringify(args)}: ${result.content}`).toBe(true);
      expect(result.content, JSON.stringify(args)).toContain(`\`${field}\``);
    }
  });
});

const withOperations = allTools().filter((tool) => tool.operations !== null);

describe.each(withOperations.map((tool) => [tool.name, tool] as const))("%s with an unknown operation", (_name, tool) => {
  it("lists the known operations", async () => {
    const result = await tool.run({ operation: "definitely_not_an_operation" }, context());
    expect(result.isError).toBe(true);
    expect(result.content).toContain(`expected one of ${Object.keys(tool.operations ?? {}).join(", ")}`);
  });
});
