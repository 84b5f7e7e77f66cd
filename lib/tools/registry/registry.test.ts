import { describe, expect, it } from "vitest";
import { z } from "zod";
import { allTools, CAPABILITIES, CAPABILITY_TAGS, Tool, ToolRegistry, ToolResult } from "@/lib/tools";

class FakeWriter extends Tool {
  name = "zz_writer";
  title = "Another writer";
  description = "Writes somewhere else.";
  inputModel = z.object({});
  capabilities = ["file.write" as const];
  origin = "mcp" as const;
  runtime = "hosted" as const;
  override async call(): Promise<ToolResult> {
    return ToolResult.ok("");
  }
}

class Broken extends Tool {
  name = "broken";
  title = "broken";
  description = "Badly declared.";
  inputModel = z.object({ key: z.string() });
  capabilities = ["file.teleport" as never];
  secretInputs = ["key"];
  rootSetting = "root";
  override async call(): Promise<ToolResult> {
    return ToolResult.ok("");
  }
}

describe("the capability vocabulary", () => {
  it("is closed: 17 tags, each with a one-line meaning", () => {
    expect(CAPABILITY_TAGS).toHaveLength(17);
    for (const tag of CAPABILITY_TAGS) {
      expect(CAPABILITIES[tag]).toMatch(/^[A-Z].+\.$/);
      expect(CAPABILITIES[tag]).not.toContain("\n");
    }
  });
});

describe("ToolRegistry over the built-ins", () => {
  const registry = new ToolRegistry(allTools());

  it("finds no declaration problems in any built-in", () => {
    expect(registry.problems()).toEqual([]);
  });

  it("resolves needs to tools", () => {
    const expected: Record<string, string> = {
      "file.read": "read_file",
      "file.write": "write_file",
      "file.edit": "apply_edit",
      "file.list": "list_dir",
      "file.search": "search",
      "data.inspect": "data",
      "db.query": "sql",
      "system.shell": "run_command",
      "web.request": "http",
      "web.browse": "browse",
      "web.search": "web_search",
    };
    for (const [tag, tool] of Object.entries(expected)) expect(registry.providersOf(tag)[0]?.name, tag).toBe(tool);
  });

  it("says which operation to call", () => {
    expect(registry.operationsFor("db.query")).toEqual([{ tool: "sql", operation: "query" }]);
    expect(registry.operationsFor("db.schema")).toEqual([
      { tool: "sql", operation: "list_tables" },
      { tool: "sql", operation: "table_schema" },
    ]);
    expect(registry.operationsFor("file.read")).toEqual([{ tool: "read_file", operation: null }]);
  });

  it("reports the tags nobody provides and the untagged tools: the agents' control tools and the sandbox's computing", () => {
    const report = registry.report();
    expect(report.unsatisfied).toEqual(["chart.render", "pdf.render", "message.send", "inbox.read"]);
    expect(report.untagged).toEqual(["run_javascript", "ask_user", "todo", "finish"]);
    expect(report.byOrigin.core).toBe(report.tools);
  });

  it("marks the sql tool read-only because every operation is", () => {
    expect(registry.all().find((manifest) => manifest.name === "sql")?.readOnly).toBe(true);
    expect(registry.all().find((manifest) => manifest.name === "write_file")?.readOnly).toBe(false);
  });
});

describe("ranking and filters", () => {
  const registry = new ToolRegistry([new FakeWriter(), ...allTools()]);

  it("ranks verified core tools before others, whatever the name", () => {
    expect(registry.providersOf("file.write").map((manifest) => manifest.name)).toEqual(["write_file", "zz_writer"]);
  });

  it("leaves hosted tools out when the need must reach localhost", () => {
    expect(registry.providersOf("file.write", { reachesLocalhost: true }).map((manifest) => manifest.name)).toEqual(["write_file"]);
  });

  it("never matches an untagged tool", () => {
    expect(registry.providersOf("")).toEqual([]);
  });
});

describe("problems()", () => {
  it("reports unknown tags, secrets without help, a root without path inputs and a missing title", () => {
    const problems = new ToolRegistry([new Broken()]).problems().map((each) => each.problem);
    expect(problems).toEqual([
      'unknown capability "file.teleport"',
      "declares secret inputs (key) without credential help",
      "declares rootSetting and pathInputs apart; they are meaningless without each other",
      "has no display title distinct from its name",
    ]);
  });
});
