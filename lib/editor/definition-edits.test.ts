import { describe, expect, it } from "vitest";
import type { CatalogTool } from "@/lib/contracts/catalog";
import type { WorkflowDefinition, WorkflowNode } from "@/lib/workflow/definition";
import { addNode, createNode, edgeForConnection, moveNodes, removeElements, replaceNode, uniqueNodeId } from "./definition-edits";

const tools = new Map<string, CatalogTool>([
  ["write_file", { name: "write_file", title: "Write file", operations: [] } as unknown as CatalogTool],
  ["sql", { name: "sql", title: "SQL", operations: [{ name: "connect" }, { name: "query" }] } as unknown as CatalogTool],
  ["echo", { name: "echo", title: "Echo", operations: [], server: "files" } as unknown as CatalogTool],
]);

type Graph = Pick<WorkflowDefinition, "nodes" | "edges">;
const empty: Graph = { nodes: [], edges: [] };

function add(graph: Graph, node: WorkflowNode | null): Graph {
  if (!node) throw new Error("expected a node");
  return addNode(graph, node);
}

describe("uniqueNodeId", () => {
  it("numbers from 1 and skips taken ids", () => {
    expect(uniqueNodeId("write_file", new Set())).toBe("write_file_1");
    expect(uniqueNodeId("write_file", new Set(["write_file_1", "write_file_2"]))).toBe("write_file_3");
  });
  it("makes any base a valid node id", () => {
    expect(uniqueNodeId("mcp.server/tool", new Set())).toBe("mcp_server_tool_1");
    expect(uniqueNodeId("9lives", new Set())).toBe("n9lives_1");
    expect(uniqueNodeId("x".repeat(100), new Set()).length).toBeLessThanOrEqual(64);
  });
});

describe("createNode", () => {
  it("makes a tool node with its first operation, empty settings and arguments", () => {
    const node = createNode({ kind: "tool", tool: "sql" }, { x: 10.4, y: 20.6 }, empty, tools);
    expect(node).toEqual({ id: "sql_1", kind: "tool", tool: "sql", operation: "connect", settings: {}, arguments: {}, position: { x: 10, y: 21 } });
  });
  it("uses the operation dragged, and null for a tool without operations", () => {
    expect(createNode({ kind: "tool", tool: "sql", operation: "query" }, { x: 0, y: 0 }, empty, tools)).toMatchObject({ operation: "query" });
    expect(createNode({ kind: "tool", tool: "write_file" }, { x: 0, y: 0 }, empty, tools)).toMatchObject({ operation: null });
  });
  it("records the MCP server an MCP tool was picked from, and nothing for the studio's own tools", () => {
    expect(createNode({ kind: "tool", tool: "echo" }, { x: 0, y: 0 }, empty, tools)).toMatchObject({ tool: "echo", mcpServer: "files" });
    expect(createNode({ kind: "tool", tool: "write_file" }, { x: 0, y: 0 }, empty, tools)).not.toHaveProperty("mcpServer");
  });
  it("allows one input node at most, and refuses unknown tools", () => {
    const withInput = add(empty, createNode({ kind: "input" }, { x: 0, y: 0 }, empty, tools));
    expect(createNode({ kind: "input" }, { x: 0, y: 0 }, withInput, tools)).toBeNull();
    expect(createNode({ kind: "tool", tool: "nope" }, { x: 0, y: 0 }, empty, tools)).toBeNull();
  });
  it("numbers repeated tools", () => {
    let graph = empty;
    graph = add(graph, createNode({ kind: "tool", tool: "sql" }, { x: 0, y: 0 }, graph, tools));
    graph = add(graph, createNode({ kind: "tool", tool: "sql" }, { x: 0, y: 0 }, graph, tools));
    expect(graph.nodes.map((node) => node.id)).toEqual(["sql_1", "sql_2"]);
  });
});

describe("edges", () => {
  let graph = empty;
  graph = add(graph, createNode({ kind: "input" }, { x: 0, y: 0 }, graph, tools));
  graph = add(graph, createNode({ kind: "router" }, { x: 0, y: 0 }, graph, tools));
  graph = add(graph, createNode({ kind: "output" }, { x: 0, y: 0 }, graph, tools));

  it("connects, with the router's route as the handle", () => {
    const made = edgeForConnection(graph, { source: "router_1", target: "output_1", sourceHandle: "default" });
    expect(made).toEqual({ edge: { id: "router_1.default->output_1", source: "router_1", target: "output_1", sourceHandle: "default" } });
    const plain = edgeForConnection(graph, { source: "input_1", target: "router_1", sourceHandle: "ignored" });
    expect(plain).toMatchObject({ edge: { sourceHandle: null } });
  });

  it("refuses loops, edges into inputs or out of outputs, and duplicates", () => {
    expect(edgeForConnection(graph, { source: "router_1", target: "router_1", sourceHandle: "default" })).toHaveProperty("refused");
    expect(edgeForConnection(graph, { source: "router_1", target: "input_1", sourceHandle: "default" })).toHaveProperty("refused");
    expect(edgeForConnection(graph, { source: "output_1", target: "router_1" })).toHaveProperty("refused");
    expect(edgeForConnection(graph, { source: "router_1", target: "output_1" })).toHaveProperty("refused");
    const first = edgeForConnection(graph, { source: "input_1", target: "output_1" });
    if (!("edge" in first)) throw new Error(first.refused);
    const connected = { ...graph, edges: [first.edge] };
    expect(edgeForConnection(connected, { source: "input_1", target: "output_1" })).toHaveProperty("refused");
  });

  it("removing a node removes its edges", () => {
    const connected = { ...graph, edges: [{ id: "e", source: "input_1", target: "router_1", sourceHandle: null }] };
    const removed = removeElements(connected, new Set(["router_1"]));
    expect(removed.nodes.map((node) => node.id)).toEqual(["input_1", "output_1"]);
    expect(removed.edges).toEqual([]);
    expect(removeElements(connected, new Set(), new Set(["e"])).edges).toEqual([]);
  });

  it("renaming a node carries its edges along", () => {
    const connected = { ...graph, edges: [{ id: "e", source: "input_1", target: "router_1", sourceHandle: null }] };
    const router = connected.nodes[1]!;
    const renamed = replaceNode(connected, "router_1", { ...router, id: "branch" });
    expect(renamed.edges[0]).toMatchObject({ source: "input_1", target: "branch" });
  });

  it("moving keeps the objects of nodes that did not move", () => {
    const moved = moveNodes(graph, new Map([["output_1", { x: 5, y: 5 }]]));
    expect(moved.nodes[0]).toBe(graph.nodes[0]);
    expect(moved.nodes[2]!.position).toEqual({ x: 5, y: 5 });
    expect(moveNodes(graph, new Map([["output_1", { x: 0, y: 0 }]]))).toBe(graph);
  });
});
