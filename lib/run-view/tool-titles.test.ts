import { describe, expect, it } from "vitest";
import type { WorkflowNode } from "@/lib/workflow/definition";
import { nodeLabel, nodeSubtitle, routerOutputs } from "./node-labels";
import { maskSecrets, operationTitle, toolTitle, toolTitlesOf } from "./tool-titles";

describe("tool titles", () => {
  const titles = toolTitlesOf([
    { name: "sql", title: "SQL Database", icon: "database", domain: "database", operations: [{ name: "query", title: "Run a query" } as never] },
  ]);
  it("names tools and operations by their titles", () => {
    expect(toolTitle(titles, "sql")).toBe("SQL Database");
    expect(operationTitle(titles, "sql", "query")).toBe("Run a query");
    expect(operationTitle(titles, "sql", null)).toBeNull();
  });
  it("makes unknown names readable", () => {
    expect(toolTitle(titles, "mcp_github_createIssue")).toBe("Mcp github create issue");
    expect(toolTitle(titles, null)).toBe("The run");
  });
});

describe("node labels", () => {
  const titles = toolTitlesOf([
    { name: "write_file", title: "Write a File", icon: null, domain: "filesystem", operations: [] },
    { name: "sql", title: "SQL Database", icon: null, domain: "database", operations: [{ name: "query", title: "Run a query" }] },
  ]);
  const tool = { id: "w", kind: "tool", tool: "write_file", operation: null, settings: {}, arguments: {}, position: { x: 0, y: 0 } } as const;
  it("uses the label, else the tool's title", () => {
    expect(nodeLabel(tool, titles)).toBe("Write a File");
    expect(nodeLabel({ ...tool, label: "Save notes" }, titles)).toBe("Save notes");
    expect(nodeSubtitle({ ...tool, label: "Save notes" }, titles)).toBe("Write a File");
    expect(nodeSubtitle({ ...tool, tool: "sql", operation: "query" }, titles)).toBe("Run a query");
  });
  it("lists a router's routes and the default", () => {
    const router: WorkflowNode = {
      id: "r",
      kind: "router",
      position: { x: 0, y: 0 },
      routes: [{ id: "big", label: "Big", value: "", operator: "is_true", compareTo: "" }],
    };
    expect(routerOutputs(router)).toEqual([
      { id: "big", label: "Big" },
      { id: "default", label: "Default" },
    ]);
    expect(nodeLabel(router, titles)).toBe("Router");
  });
});

describe("maskSecrets", () => {
  const titles = toolTitlesOf([{ name: "sql", title: "SQL", icon: null, domain: "database", operations: [], secretInputs: [{ name: "dsn" }] }]);
  it("hides literal secret values and keeps references", () => {
    expect(maskSecrets(titles, "sql", { dsn: "postgres://u:pw@h/db", sql: "select 1" })).toEqual({ dsn: "••••••••", sql: "select 1" });
    expect(maskSecrets(titles, "sql", { dsn: "${WAREHOUSE}" })).toEqual({ dsn: "${WAREHOUSE}" });
    expect(maskSecrets(titles, "other", { dsn: "x" })).toEqual({ dsn: "x" });
  });
});
