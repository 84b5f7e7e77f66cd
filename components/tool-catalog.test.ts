import { describe, expect, it } from "vitest";
import { catalogEntry } from "@/lib/server/tool-catalog";
import { fakeTool } from "@/lib/tools/testing/fake-tool";
import { groupToolsByDomain } from "./tool-catalog";

describe("groupToolsByDomain", () => {
  it("orders known domains first, then unknown ones alphabetically, keeping tool order", () => {
    const groups = groupToolsByDomain([
      fakeTool({ name: "zeta", title: "Zeta", domain: "weather-things" }),
      fakeTool({ name: "finish", title: "Finish", domain: "agent" }),
      fakeTool({ name: "read_file", title: "Read a File", domain: "filesystem" }),
      fakeTool({ name: "alpha", title: "Alpha", domain: "astronomy" }),
      fakeTool({ name: "write_file", title: "Write a File", domain: "filesystem" }),
    ].map(catalogEntry));
    expect(groups.map((group) => group.title)).toEqual(["Files", "Agent Control", "Astronomy", "Weather Things"]);
    expect(groups[0]?.tools.map((tool) => tool.title)).toEqual(["Read a File", "Write a File"]);
  });

  it("returns no groups for no tools", () => {
    expect(groupToolsByDomain([])).toEqual([]);
  });
});
