import { beforeAll, describe, expect, it } from "vitest";
import { allTools } from "@/lib/tools/builtin";
import { ApiClient, type Json } from "./api-client";
import { setupStudioServer } from "./studio-server";

const server = setupStudioServer();
let api: ApiClient;
let tools: Json[];

beforeAll(async () => {
  api = server.client();
  tools = (await api.expect(200, "GET", "/api/tools")).tools;
});


/** Every key anywhere in a JSON value. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === "object") return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
  return [];
}

const byName = (name: string): Json => {
  const tool = tools.find((each) => each.name === name);
  if (!tool) throw new Error(`GET /api/tools does not list "${name}".`);
  return tool;
};

describe("GET /api/tools", () => {
  it("lists every built-in tool, each with a title, description and input schema", () => {
    const expected = allTools().map((tool) => tool.name);
    expect(tools.map((tool) => tool.name).sort()).toEqual([...expected].sort());
    for (const tool of tools) {
      expect(tool.title, tool.name).toMatch(/\S/);
      expect(tool.description, tool.name).toMatch(/\S/);
      expect(tool.domain, tool.name).toMatch(/\S/);
      expect(tool.inputSchema, tool.name).toMatchObject({ type: "object" });
      expect(tool.flags, tool.name).toEqual({
        readOnly: expect.any(Boolean),
        concurrencySafe: expect.any(Boolean),
        destructive: expect.any(Boolean),
      });
    }
  });

  it("gives every operation a title, a read-only flag and an input schema", () => {
    const sql = byName("sql");
    expect(sql.operations.map((operation: Json) => operation.name).sort()).toEqual(["list_tables", "query", "table_schema", "test_connection"]);
    expect(byName("run_command").operations.map((operation: Json) => operation.name).sort()).toEqual(["kill", "run", "status"]);
    for (const tool of tools) {
      for (const operation of tool.operations) {
        expect(operation.title, `${tool.name}.${operation.name}`).toMatch(/\S/);
        expect(typeof operation.readOnly).toBe("boolean");
        expect(operation.inputSchema, `${tool.name}.${operation.name}`).toMatchObject({ type: "object" });
      }
    }
    const query = sql.operations.find((operation: Json) => operation.name === "query");
    expect(query.readOnly).toBe(true);
    expect(Object.keys(query.inputSchema.properties)).toContain("sql");
  });

  it("has no settings section for browse and http, and a folder setting for file tools", () => {
    expect(byName("browse").settingsSchema).toBeNull();
    expect(byName("http").settingsSchema).toBeNull();
    const writeFile = byName("write_file");
    expect(writeFile.settingsSchema).toMatchObject({ type: "object", properties: { root: { format: "directory" } } });
    expect(writeFile.rootSetting).toBe("root");
    expect(writeFile.pathInputs).toEqual(["path"]);
  });

  it("declares the sql connection URL as a secret input with credential help", () => {
    const sql = byName("sql");
    expect(sql.secretInputs).toEqual([{ name: "dsn", credentialHelp: expect.stringContaining("connection URL") }]);
    expect(sql.secretInputs[0].credentialHelp).toContain("${NAME}");
  });

  it("never shows `dsn` in a schema the model reads", () => {
    for (const tool of tools) {
      expect(keysOf(tool.inputSchema), tool.name).not.toContain("dsn");
      for (const operation of tool.operations) {
        expect(keysOf(operation.inputSchema), `${tool.name}.${operation.name}`).not.toContain("dsn");
        expect(operation.inputSchema.required ?? [], `${tool.name}.${operation.name}`).not.toContain("dsn");
      }
    }
  });
});
