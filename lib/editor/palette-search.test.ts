import { describe, expect, it } from "vitest";
import type { CatalogOperation, CatalogTool } from "@/lib/contracts/catalog";
import { searchCatalog } from "./palette-search";

function operation(name: string, title: string, capabilities: string[] = [], description = ""): CatalogOperation {
  return { name, title, description, readOnly: true, capabilities, inputSchema: {} };
}

function tool(name: string, title: string, description: string, capabilities: string[], operations: CatalogOperation[] = []): CatalogTool {
  return {
    name,
    title,
    description,
    icon: null,
    domain: "filesystem",
    origin: "builtin",
    runtime: "node",
    capabilities,
    flags: { readOnly: false, concurrencySafe: false, destructive: false },
    operations,
    inputSchema: {},
    settingsSchema: null,
    rootSetting: null,
    pathInputs: [],
    secretInputs: [],
  } as unknown as CatalogTool;
}

const TOOLS = [
  tool("write_file", "Save a document", "Puts text on disk.", ["file.write"]),
  tool("read_file", "Read a file", "Returns a file's contents.", ["file.read"]),
  tool("sql", "SQL database", "Talks to databases.", ["db.connect", "db.query"], [
    operation("connect", "Check the connection", ["db.connect"]),
    operation("query", "Run a query", ["db.query"], "Runs a read-only SELECT."),
  ]),
];

describe("searchCatalog", () => {
  it("keeps everything for an empty query", () => {
    expect(searchCatalog(TOOLS, "  ").map((match) => match.tool.name)).toEqual(["write_file", "read_file", "sql"]);
  });

  it("finds a tool through the capability a phrase means, even when no word of its text matches", () => {
    const matches = searchCatalog(TOOLS, "write a file");
    expect(matches.map((match) => match.tool.name)).toEqual(["write_file"]);
    expect(matches[0]!.viaCapabilities).toEqual(["file.write"]);
  });

  it("matches titles and descriptions", () => {
    expect(searchCatalog(TOOLS, "document").map((match) => match.tool.name)).toEqual(["write_file"]);
    expect(searchCatalog(TOOLS, "contents").map((match) => match.tool.name)).toEqual(["read_file"]);
  });

  it("lists only the operations the query found, unless the tool itself matched", () => {
    const [match] = searchCatalog(TOOLS, "select");
    expect(match!.tool.name).toBe("sql");
    expect(match!.operations.map((each) => each.name)).toEqual(["query"]);
    expect(searchCatalog(TOOLS, "SQL database")[0]!.operations).toHaveLength(2);
  });

  it("finds nothing for nonsense", () => {
    expect(searchCatalog(TOOLS, "zebra crossing")).toEqual([]);
  });
});
