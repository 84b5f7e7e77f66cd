import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineOperation, Tool, ToolResult } from "@/lib/tools";
import { groupToolsByDomain, summarizeTool } from "./tool-catalog";

const NoArgs = z.object({});

function makeTool(fields: { name: string; title: string; domain: string; readOnly?: boolean }): Tool {
  class FakeTool extends Tool {
    readonly name = fields.name;
    readonly title = fields.title;
    readonly description = `${fields.title} does a thing.`;
    readonly domain = fields.domain;
    readonly capabilities = ["file.read"] as const;
    readonly inputModel = NoArgs;
    override isReadOnly(): boolean {
      return fields.readOnly ?? false;
    }
    override async call(): Promise<ToolResult> {
      return ToolResult.ok("done");
    }
  }
  return new FakeTool();
}

describe("groupToolsByDomain", () => {
  it("orders known domains first, then unknown ones alphabetically, keeping tool order", () => {
    const groups = groupToolsByDomain([
      makeTool({ name: "zeta", title: "Zeta", domain: "weather-things" }),
      makeTool({ name: "finish", title: "Finish", domain: "agent" }),
      makeTool({ name: "read_file", title: "Read a File", domain: "filesystem" }),
      makeTool({ name: "alpha", title: "Alpha", domain: "astronomy" }),
      makeTool({ name: "write_file", title: "Write a File", domain: "filesystem" }),
    ]);
    expect(groups.map((group) => group.title)).toEqual(["Files", "Agent Control", "Astronomy", "Weather Things"]);
    expect(groups[0]?.tools.map((tool) => tool.title)).toEqual(["Read a File", "Write a File"]);
  });

  it("returns no groups for no tools", () => {
    expect(groupToolsByDomain([])).toEqual([]);
  });
});

describe("summarizeTool", () => {
  it("keeps the title for display and the name as identifier", () => {
    const summary = summarizeTool(makeTool({ name: "read_file", title: "Read a File", domain: "filesystem", readOnly: true }));
    expect(summary).toMatchObject({ name: "read_file", title: "Read a File", readOnly: true, operations: [] });
    expect(summary.capabilities).toEqual([{ tag: "file.read", description: expect.stringContaining("Read") }]);
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
    const summary = summarizeTool(new SqlTool());
    expect(summary.operations.map((operation) => operation.title)).toEqual(["Run a query", "List tables"]);
    expect(summary.capabilities.map((capability) => capability.tag)).toEqual(["db.query", "db.schema"]);
    expect(summary.readOnly).toBe(true);
  });
});
