import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AddTool, pool } from "@/examples/add-tool";
import { allTools, AutoApproveIOHandler, buildPool, createToolContext, defaultPool, ToolPool, UnknownToolError } from "@/lib/tools";

describe("the README's custom tool", () => {
  it("is the example file, word for word", () => {
    const readme = readFileSync(path.join(import.meta.dirname, "../../README.md"), "utf8");
    const example = readFileSync(path.join(import.meta.dirname, "../../examples/add-tool.ts"), "utf8");
    expect(readme).toContain(example.trim());
  });

  it("joins a pool like a built-in and runs", async () => {
    expect(pool.get("add")?.title).toBe("Add numbers");
    expect(pool.names()).toEqual([...allTools().map((tool) => tool.name), "add"]);
    const result = await pool.get("add")!.run({ a: 2, b: 3.5 }, createToolContext({ io: new AutoApproveIOHandler() }));
    expect(result).toMatchObject({ isError: false, content: "5.5" });
    const bad = await new AddTool().run({ a: "two", b: 1 }, createToolContext({ io: new AutoApproveIOHandler() }));
    expect(bad).toMatchObject({ isError: true, content: expect.stringContaining("`a`: expected number, received string") });
  });

  it("is read-only and therefore concurrency-safe and not destructive", () => {
    const tool = new AddTool();
    expect([tool.isReadOnly(), tool.isConcurrencySafe(), tool.isDestructive()]).toEqual([true, true, false]);
  });
});

describe("ToolPool", () => {
  it("narrows with buildPool and lists the known names for an unknown one", () => {
    expect(buildPool(["read_file", "list_dir", "search"]).names()).toEqual(["read_file", "list_dir", "search"]);
    try {
      buildPool(["read_file", "teleport"]);
      expect.fail("buildPool accepted an unknown tool");
    } catch (error) {
      expect(UnknownToolError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/^Unknown tool: teleport\. Known tools: read_file, write_file, /);
    }
  });

  it("resolves the names models reach for to the real tools", () => {
    const tools = defaultPool();
    const aliases: Record<string, string> = {
      cat: "read_file",
      ls: "list_dir",
      grep: "search",
      find: "search",
      glob: "search",
      save_file: "write_file",
      create_file: "write_file",
      edit_file: "apply_edit",
      shell: "run_command",
      bash: "run_command",
      exec: "run_command",
    };
    for (const [alias, name] of Object.entries(aliases)) expect(tools.get(alias)?.name, alias).toBe(name);
    expect(tools.get("teleport")).toBeUndefined();
  });

  it("refuses two tools with one name", () => {
    expect(() => new ToolPool([new AddTool(), new AddTool()])).toThrow(/Two tools are named "add"/);
  });

  it("sends models schemas without settings or secret inputs", () => {
    const schemas = defaultPool().schemas();
    expect(schemas.map((schema) => schema.name)).toEqual(defaultPool().names());
    for (const tool of allTools()) {
      const schema = schemas.find((each) => each.name === tool.name)!;
      const properties = Object.keys((schema.inputSchema.properties as object) ?? {});
      for (const secret of tool.secretInputs) expect(properties, `${tool.name}.${secret}`).not.toContain(secret);
      if (tool.rootSetting) expect(properties, tool.name).not.toContain(tool.rootSetting);
      expect(schema.inputSchema.type, tool.name).toBe("object");
      // Every schema goes to the model every turn: keep each one small.
      expect(JSON.stringify(schema).length, tool.name).toBeLessThan(4_000);
    }
  });

  it("hides arguments the builder bound", () => {
    const [schema] = buildPool(["read_file"]).schemas({ read_file: ["path"] });
    expect(Object.keys(schema!.inputSchema.properties as object)).not.toContain("path");
  });
});
