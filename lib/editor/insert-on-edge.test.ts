import { describe, expect, it } from "vitest";
import type { CatalogTool } from "@/lib/contracts/catalog";
import type { WorkflowDefinition, WorkflowNode } from "@/lib/workflow/definition";
import { CARD_WIDTH, LAYER_GAP } from "./auto-layout";
import { insertOnEdge } from "./insert-on-edge";

const tools = new Map<string, CatalogTool>([["write_file", { name: "write_file", title: "Write file", operations: [] } as unknown as CatalogTool]]);

type Graph = Pick<WorkflowDefinition, "nodes" | "edges">;

function tool(id: string, x: number, y = 0): WorkflowNode {
  return { id, kind: "tool", tool: "write_file", operation: null, settings: {}, arguments: {}, position: { x, y } } as WorkflowNode;
}

/** input -> a -> b -> c, cards 340 px apart (one layer gap): too narrow for a card between them. */
function chain(): Graph {
  return {
    nodes: [{ id: "input", kind: "input", fields: [], position: { x: 0, y: 0 } } as unknown as WorkflowNode, tool("a", 340), tool("b", 680), tool("c", 1020)],
    edges: [
      { id: "input->a", source: "input", target: "a", sourceHandle: null },
      { id: "a->b", source: "a", target: "b", sourceHandle: null },
      { id: "b->c", source: "b", target: "c", sourceHandle: null },
    ],
  };
}

function inserted(result: ReturnType<typeof insertOnEdge<Graph>>) {
  if ("refused" in result) throw new Error(result.refused);
  return result;
}

describe("insertOnEdge", () => {
  it("wires source -> new -> target in place of the edge", () => {
    const { definition, nodeId } = inserted(insertOnEdge(chain(), "a->b", { kind: "tool", tool: "write_file" }, tools));
    expect(nodeId).toBe("write_file_1");
    expect(definition.edges.map((edge) => `${edge.source}->${edge.target}`)).toEqual(["input->a", "b->c", "a->write_file_1", "write_file_1->b"]);
  });

  it("moves the target and what follows it right when the gap is too narrow, and leaves what comes before", () => {
    const { definition, nodeId } = inserted(insertOnEdge(chain(), "a->b", { kind: "tool", tool: "write_file" }, tools));
    const x = (id: string) => definition.nodes.find((node) => node.id === id)!.position.x;
    expect(x("input")).toBe(0);
    expect(x("a")).toBe(340);
    expect(x(nodeId)).toBe(340 + CARD_WIDTH + LAYER_GAP);
    expect(x("b")).toBe(x(nodeId) + CARD_WIDTH + LAYER_GAP);
    expect(x("c") - x("b")).toBe(340);
  });

  it("puts the step in the middle of a wide gap without moving anything", () => {
    const graph = chain();
    graph.nodes[2] = tool("b", 1340, 200);
    const { definition, nodeId } = inserted(insertOnEdge(graph, "a->b", { kind: "tool", tool: "write_file" }, tools));
    const node = definition.nodes.find((each) => each.id === nodeId)!;
    expect(node.position).toEqual({ x: (340 + CARD_WIDTH + 1340 - CARD_WIDTH) / 2, y: 100 });
    expect(definition.nodes.find((each) => each.id === "b")!.position).toEqual({ x: 1340, y: 200 });
  });

  it("keeps the handle the edge left from, and carries on along a new router's default route", () => {
    const graph = chain();
    graph.edges[1] = { id: "a.error->b", source: "a", target: "b", sourceHandle: "error" };
    graph.nodes[1] = { ...tool("a", 340), execution: { onError: "error-edge" } } as WorkflowNode;
    const { definition, nodeId } = inserted(insertOnEdge(graph, "a.error->b", { kind: "router" }, tools));
    expect(definition.edges).toContainEqual(expect.objectContaining({ source: "a", target: nodeId, sourceHandle: "error" }));
    expect(definition.edges).toContainEqual(expect.objectContaining({ source: nodeId, target: "b", sourceHandle: "default" }));
  });

  it("refuses what cannot go between two steps, naming why", () => {
    expect(insertOnEdge(chain(), "a->b", { kind: "webhook" }, tools)).toEqual({ refused: expect.stringContaining("starts a workflow") });
    expect(insertOnEdge(chain(), "a->b", { kind: "output" }, tools)).toEqual({ refused: "An output ends the workflow: nothing flows out of it." });
    expect(insertOnEdge(chain(), "gone", { kind: "router" }, tools)).toEqual({ refused: "That connection is no longer in the workflow." });
    expect(insertOnEdge(chain(), "a->b", { kind: "tool", tool: "unknown" }, tools)).toEqual({ refused: "That tool is not available in this studio." });
  });
});
