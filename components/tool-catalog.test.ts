import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Tool, ToolResult } from "@/lib/tools";
import { catalogEntry } from "@/lib/server/tool-catalog";
import { groupToolsByDomain } from "./tool-catalog";

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
    ].map(catalogEntry));
    expect(groups.map((group) => group.title)).toEqual(["Files", "Agent Control", "Astronomy", "Weather Things"]);
    expect(groups[0]?.tools.map((tool) => tool.title)).toEqual(["Read a File", "Write a File"]);
  });

  it("returns no groups for no tools", () => {
    expect(groupToolsByDomain([])).toEqual([]);
  });
});
