import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CatalogToolSchema } from "@/lib/contracts/catalog";
import { defineOperation, Tool, ToolResult } from "@/lib/tools";
import { fakeTool } from "@/lib/tools/testing/fake-tool";
import { catalogEntry } from "./tool-catalog";

const NoArgs = z.object({});

describe("catalogEntry", () => {
  it("keeps the title for display and the name as identifier", () => {
    const summary = catalogEntry(fakeTool({ name: "read_file", title: "Read a File", domain: "filesystem", readOnly: true }));
    expect(summary).toMatchObject({ name: "read_file", title: "Read a File", flags: { readOnly: true }, operations: [], settingsSchema: null });
    expect(summary.capabilities).toEqual(["file.read"]);
    expect(CatalogToolSchema.parse(summary)).toEqual(summary);
  });

  it("lists operations by title and merges their capabilities once", () => {
    const operations = {
      query: defineOperation({
        title: "Run a query",
        description: "Run a read-only query.",
        inputModel: NoArgs,
        capabilities: ["db.query"],
        readOnly: true,
        execute: async () => ToolResult.ok(""),
      }),
      list_tables: defineOperation({
        title: "List tables",
        description: "List the tables.",
        inputModel: NoArgs,
        capabilities: ["db.schema", "db.query"],
        readOnly: true,
        execute: async () => ToolResult.ok(""),
      }),
    };
    class SqlTool extends Tool {
      readonly name = "sql";
      readonly title = "SQL Database";
      readonly description = "Query a database.";
      readonly domain = "database";
      readonly inputModel = NoArgs;
      override readonly operations = operations as unknown as Tool["operations"];
    }
    const summary = catalogEntry(new SqlTool());
    expect(summary.operations.map((operation) => operation.title)).toEqual(["Run a query", "List tables"]);
    expect(summary.capabilities).toEqual(["db.query", "db.schema"]);
    expect(summary.flags.readOnly).toBe(true);
  });
});
