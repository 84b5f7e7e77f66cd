import { describe, expect, it } from "vitest";
import type { WorkflowDefinition, WorkflowEdge, WorkflowNode } from "@/lib/workflow/definition";
import { autoLayout, autoLayoutPositions, CARD_WIDTH, clearOfOtherCards, LAYER_GAP, longestPathLayers } from "./auto-layout";

function tool(id: string): WorkflowNode {
  return { id, kind: "tool", tool: "noop", operation: null, settings: {}, arguments: {}, position: { x: 0, y: 0 } };
}
function edge(source: string, target: string, sourceHandle: string | null = null): WorkflowEdge {
  return { id: `${source}-${target}`, source, target, sourceHandle };
}
function graph(ids: string[], edges: WorkflowEdge[]): Pick<WorkflowDefinition, "nodes" | "edges"> {
  return { nodes: ids.map(tool), edges };
}

describe("longestPathLayers", () => {
  it("puts each node one layer after its furthest predecessor", () => {
    const layers = longestPathLayers(graph(["a", "b", "c", "d"], [edge("a", "b"), edge("b", "c"), edge("a", "c"), edge("c", "d")]));
    expect(Object.fromEntries(layers)).toEqual({ a: 0, b: 1, c: 2, d: 3 });
  });

  it("gives unconnected nodes layer 0 and survives cycles", () => {
    const layers = longestPathLayers(graph(["a", "b", "c", "x"], [edge("a", "b"), edge("b", "c"), edge("c", "b")]));
    expect(layers.get("a")).toBe(0);
    expect(layers.get("x")).toBe(0);
    expect(layers.get("b")).toBe(1);
    expect(layers.get("c")).toBe(2);
  });

  it("handles a graph that is one big cycle", () => {
    const layers = longestPathLayers(graph(["a", "b"], [edge("a", "b"), edge("b", "a")]));
    expect(Object.fromEntries(layers)).toEqual({ a: 0, b: 1 });
  });

  it("ignores edges to unknown nodes", () => {
    expect(Object.fromEntries(longestPathLayers(graph(["a"], [edge("a", "ghost")])))).toEqual({ a: 0 });
  });
});

describe("autoLayoutPositions", () => {
  it("lays layers out left to right and centres each column", () => {
    const positions = autoLayoutPositions(graph(["in", "left", "right", "out"], [edge("in", "left"), edge("in", "right"), edge("left", "out"), edge("right", "out")]));
    const step = CARD_WIDTH + LAYER_GAP;
    expect(positions.get("in")!.x).toBe(0);
    expect(positions.get("left")!.x).toBe(step);
    expect(positions.get("right")!.x).toBe(step);
    expect(positions.get("out")!.x).toBe(2 * step);
    expect(positions.get("left")!.y).toBeLessThan(positions.get("right")!.y);
    expect(positions.get("left")!.y).toBe(-positions.get("right")!.y - 76);
  });

  it("orders a column by its predecessors' rows, then by definition order", () => {
    // b2 comes before b1 in the definition, but hangs off a1, which is above a2.
    const positions = autoLayoutPositions(graph(["a1", "a2", "b2", "b1"], [edge("a2", "b2"), edge("a1", "b1")]));
    expect(positions.get("b1")!.y).toBeLessThan(positions.get("b2")!.y);
  });

  it("is stable: laying out a laid-out graph changes nothing", () => {
    const input = graph(["a", "b", "c", "d", "e"], [edge("a", "c"), edge("b", "c"), edge("c", "d"), edge("a", "e")]);
    const once = autoLayout(input);
    const twice = autoLayout(once);
    expect(twice).toBe(once);
    expect(autoLayout(input)).toEqual(once);
  });

  it("leaves nodes already in place untouched (same objects)", () => {
    const input = graph(["a", "b"], []);
    const placed = { ...input, nodes: input.nodes.map((node, row) => ({ ...node, position: { x: 0, y: row === 0 ? -100 : 24 } })) };
    expect(autoLayout(placed)).toBe(placed);
  });
});

describe("clearOfOtherCards", () => {
  it("keeps a free spot, and steps off cards already there", () => {
    expect(clearOfOtherCards({ x: 100, y: 100 }, [{ position: { x: 400, y: 100 } }])).toEqual({ x: 100, y: 100 });
    const taken = [{ position: { x: 100, y: 100 } }, { position: { x: 135, y: 128 } }];
    expect(clearOfOtherCards({ x: 100, y: 100 }, taken)).toEqual({ x: 164, y: 164 });
  });
});
