import { describe, expect, it } from "vitest";
import type { CatalogTool } from "@/lib/contracts/catalog";
import type { WorkflowDefinition, WorkflowNode } from "@/lib/workflow/definition";
import type { WorkflowProblem } from "@/lib/workflow/validate";
import { cardData, createFlowEdgeMapper, createFlowNodeMapper, definitionBounds, type FlowContext } from "./to-flow";

const sql = {
  name: "sql_query",
  title: "SQL database",
  icon: "database",
  domain: "database",
  operations: [
    { name: "connect", title: "Check the connection" },
    { name: "query", title: "Run a query" },
  ],
} as unknown as CatalogTool;

const nodes: WorkflowNode[] = [
  { id: "input_1", kind: "input", position: { x: 0, y: 0 }, fields: [{ name: "q", type: "string", required: true }] },
  { id: "sql_1", kind: "tool", tool: "sql_query", operation: "query", settings: {}, arguments: {}, position: { x: 300, y: 0 } },
  { id: "router_1", kind: "router", position: { x: 600, y: 0 }, routes: [{ id: "big", label: "Big", value: "x", operator: "is_true", compareTo: "" }, { id: "small", value: "y", operator: "is_true", compareTo: "" }] },
  { id: "output_1", kind: "output", label: "Answer", position: { x: 900, y: 0 }, value: "" },
];

const problem = (nodeId: string, message: string): WorkflowProblem => ({ nodeId, field: null, message, severity: "error" });

function context(overrides: Partial<FlowContext> = {}): FlowContext {
  return { tools: new Map([["sql_query", sql]]), problems: new Map(), selected: new Set(), ...overrides };
}

describe("cardData", () => {
  it("titles a tool node by the tool's title and its operation's title, never the tool's name", () => {
    expect(cardData(nodes[1]!, sql)).toMatchObject({ kind: "tool", title: "SQL database", subtitle: "Run a query", icon: "database", domain: "database" });
    expect(cardData({ ...(nodes[1] as Extract<WorkflowNode, { kind: "tool" }>), label: "Lookup" }, sql).title).toBe("Lookup");
  });

  it("says when a tool is missing instead of showing its name", () => {
    const data = cardData(nodes[1]!, undefined);
    expect(data.title).toBe("Unknown tool");
    expect(data.title).not.toContain("sql_query");
  });

  it("gives routers one output per route plus default, inputs no input and outputs no output", () => {
    expect(cardData(nodes[2]!, undefined).outputs).toEqual([
      { id: "big", label: "Big" },
      { id: "small", label: "small" },
      { id: "default", label: "default" },
    ]);
    expect(cardData(nodes[0]!, undefined)).toMatchObject({ hasInput: false, title: "Run inputs", subtitle: "1 field" });
    expect(cardData(nodes[3]!, undefined)).toMatchObject({ hasOutput: false, title: "Answer" });
  });

  it("counts problems and shows the first", () => {
    expect(cardData(nodes[1]!, sql, [problem("sql_1", "choose a folder"), problem("sql_1", "other")])).toMatchObject({ problems: 2, problemText: "choose a folder" });
  });
});

describe("createFlowNodeMapper", () => {
  it("derives React Flow nodes with a type per kind", () => {
    const flow = createFlowNodeMapper().map(nodes, context());
    expect(flow.map((node) => [node.id, node.type])).toEqual([
      ["input_1", "workflow-input"],
      ["sql_1", "workflow-tool"],
      ["router_1", "workflow-router"],
      ["output_1", "workflow-output"],
    ]);
    expect(flow[1]!.position).toBe(nodes[1]!.position);
  });

  it("reuses every unchanged node object, and the data of a node that only moved", () => {
    const { map } = createFlowNodeMapper();
    const first = map(nodes, context());
    const moved = nodes.map((node) => (node.id === "sql_1" ? { ...node, position: { x: 1, y: 2 } } : node));
    const second = map(moved, context());
    expect(second[0]).toBe(first[0]);
    expect(second[2]).toBe(first[2]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1]!.data).toBe(first[1]!.data);
    expect(second[1]!.position).toEqual({ x: 1, y: 2 });
  });

  it("re-creates only the node whose selection, problems or size changed", () => {
    const { map } = createFlowNodeMapper();
    const first = map(nodes, context());
    const selected = map(nodes, context({ selected: new Set(["router_1"]) }));
    expect(selected[2]!.selected).toBe(true);
    expect(selected.filter((node, index) => node !== first[index]).map((node) => node.id)).toEqual(["router_1"]);
    const withProblems = map(nodes, context({ selected: new Set(["router_1"]), problems: new Map([["sql_1", [problem("sql_1", "bad")]]]) }));
    expect(withProblems.filter((node, index) => node !== selected[index]).map((node) => node.id)).toEqual(["sql_1"]);
    expect(withProblems[1]!.data.problems).toBe(1);
    // a new but equal problem list changes nothing
    const again = map(nodes, context({ selected: new Set(["router_1"]), problems: new Map([["sql_1", [problem("sql_1", "bad")]]]) }));
    expect(again).toEqual(withProblems);
    expect(again[1]).toBe(withProblems[1]);
  });

  it("marks pinned cards, in their data and their name, re-creating only the cards whose pin changed", () => {
    const { map } = createFlowNodeMapper();
    const first = map(nodes, context());
    const pinned = map(nodes, context({ pinned: new Set(["sql_1"]) }));
    expect(pinned.filter((node, index) => node !== first[index]).map((node) => node.id)).toEqual(["sql_1"]);
    expect(pinned[1]!.data.pinned).toBe(true);
    expect(pinned[1]!.ariaLabel).toBe("SQL database, tool, output pinned");
    expect(map(nodes, context({ pinned: new Set(["sql_1"]) }))[1]).toBe(pinned[1]);
    expect(map(nodes, context())[1]!.data.pinned).toBeUndefined();
  });

  it("marks what the Architect's proposal does to a card, re-creating only the cards whose mark changed", () => {
    const { map } = createFlowNodeMapper();
    const first = map(nodes, context());
    const marked = map(nodes, context({ proposal: new Map([["output_1", { change: "added", accepted: false }]]) }));
    expect(marked.filter((node, index) => node !== first[index]).map((node) => node.id)).toEqual(["output_1"]);
    expect(marked[3]!.data.proposed).toEqual({ change: "added", accepted: false });
    expect(marked[3]!.ariaLabel).toBe("Answer, Output, proposed: new step (not ticked)");
    expect(map(nodes, context({ proposal: new Map([["output_1", { change: "added", accepted: false }]]) }))[3]).toBe(marked[3]);
    expect(map(nodes, context({ proposal: new Map([["output_1", { change: "added", accepted: true }]]) }))[3]!.ariaLabel).toBe("Answer, Output, proposed: new step");
    expect(map(nodes, context())[3]!.data.proposed).toBeUndefined();
  });

  it("names each card for a screen reader by its title, what it is and its problems", () => {
    const flow = createFlowNodeMapper().map(
      nodes.map((node) => (node.id === "sql_1" ? { ...node, label: "Find the order" } : node)),
      context({ problems: new Map([["sql_1", [problem("sql_1", "choose a folder"), problem("sql_1", "other")]]]) }),
    );
    expect(flow.map((node) => node.ariaLabel)).toEqual(["Run inputs", "Find the order, SQL database tool, 2 problems", "Router", "Answer, Output"]);
  });

  it("passes measured sizes on to new objects, but a size alone makes no new object", () => {
    const mapper = createFlowNodeMapper();
    const first = mapper.map(nodes, context());
    mapper.measure("input_1", { width: 240, height: 80 });
    expect(mapper.map(nodes, context())[0]).toBe(first[0]);
    const moved = nodes.map((node) => (node.id === "input_1" ? { ...node, position: { x: 9, y: 9 } } : node));
    expect(mapper.map(moved, context())[0]!.measured).toEqual({ width: 240, height: 80 });
    expect(mapper.sizes().get("input_1")).toEqual({ width: 240, height: 80 });
  });
});

describe("createFlowEdgeMapper", () => {
  it("keeps router handles and reuses unchanged edges", () => {
    const edges: WorkflowDefinition["edges"] = [
      { id: "a", source: "input_1", target: "router_1", sourceHandle: null },
      { id: "b", source: "router_1", target: "output_1", sourceHandle: "big" },
    ];
    const map = createFlowEdgeMapper();
    const first = map(edges, new Set());
    expect(first[0]).not.toHaveProperty("sourceHandle");
    expect(first[1]).toMatchObject({ sourceHandle: "big", selected: false });
    const second = map(edges, new Set(["b"]));
    expect(second[0]).toBe(first[0]);
    expect(second[1]!.selected).toBe(true);
  });

  it("draws an edge the Architect proposes by its change, and says it in its name", () => {
    const edges: WorkflowDefinition["edges"] = [{ id: "a", source: "input_1", target: "router_1", sourceHandle: null }];
    const map = createFlowEdgeMapper();
    const [removed] = map(edges, new Set(), () => "Run inputs to Router", new Map([["a", { change: "removed", accepted: false }]]));
    expect(removed).toMatchObject({ className: "proposed-removed proposed-declined", ariaLabel: "Run inputs to Router, proposed to be removed (not ticked)" });
    expect(map(edges, new Set(), () => "Run inputs to Router")[0]).not.toHaveProperty("className");
  });
});

describe("definitionBounds", () => {
  it("spans every node with its size", () => {
    expect(definitionBounds({ nodes: [] })).toBeNull();
    const bounds = definitionBounds({ nodes: [nodes[0]!, nodes[3]!] }, new Map([["output_1", { width: 100, height: 50 }]]));
    expect(bounds).toEqual({ x: 0, y: 0, width: 1000, height: 76 });
  });
});

describe("a card's error handle", () => {
  const tool = nodes[1] as Extract<WorkflowNode, { kind: "tool" }>;
  it("is there only while the node follows its error path, and its card is drawn anew when that changes", () => {
    expect(cardData(tool, sql).errorHandle).toBeUndefined();
    expect(cardData({ ...tool, execution: { onError: "continue" } }, sql).errorHandle).toBeUndefined();
    expect(cardData({ ...tool, execution: { onError: "error-edge" } }, sql).errorHandle).toBe(true);

    const mapper = createFlowNodeMapper();
    const [before] = mapper.map([tool], context());
    const [after] = mapper.map([{ ...tool, execution: { onError: "error-edge" } }], context());
    expect(after!.data).not.toBe(before!.data);
    expect(after!.data.errorHandle).toBe(true);
    // A retry setting changes nothing on the card: its data object is kept.
    const [retried] = mapper.map([{ ...tool, execution: { onError: "error-edge", retry: { maxAttempts: 3, initialDelayMs: 1000, factor: 2 } } }], context());
    expect(retried!.data).toBe(after!.data);
  });
});
