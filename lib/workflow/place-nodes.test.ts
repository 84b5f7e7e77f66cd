import { describe, expect, it } from "vitest";
import { WorkflowDefinitionSchema } from "./definition";
import { placeStackedNodes } from "./place-nodes";

const chain = (...ids: string[]) => ids.slice(1).map((id, index) => ({ id: `e${index}`, source: ids[index]!, target: id }));
const output = (id: string) => ({ id, kind: "output" as const, value: "done" });

describe("placeStackedNodes", () => {
  it("lays out a workflow given no positions left to right, a column per step and a row per branch", () => {
    const definition = WorkflowDefinitionSchema.parse({
      name: "No places",
      nodes: [{ id: "in", kind: "input", fields: [] }, output("a"), output("b"), output("c")],
      edges: [...chain("in", "a", "c"), { id: "branch", source: "in", target: "b" }],
    });
    const placed = placeStackedNodes(definition);
    expect(Object.fromEntries(placed.nodes.map((node) => [node.id, node.position]))).toEqual({
      in: { x: 0, y: 0 },
      a: { x: 320, y: 0 },
      b: { x: 320, y: 160 },
      c: { x: 640, y: 0 },
    });
    // Everything but the places is the definition as it was.
    expect({ ...placed, nodes: placed.nodes.map(({ position: _position, ...node }) => node) }).toEqual({
      ...definition,
      nodes: definition.nodes.map(({ position: _position, ...node }) => node),
    });
  });

  it("keeps a layout a person made, and a single node, as they are", () => {
    const laidOut = WorkflowDefinitionSchema.parse({
      name: "Placed",
      nodes: [{ id: "in", kind: "input", fields: [], position: { x: 0, y: 0 } }, { ...output("out"), position: { x: 0, y: 0 } }, { ...output("other"), position: { x: 50, y: 10 } }],
      edges: chain("in", "out"),
    });
    expect(placeStackedNodes(laidOut)).toBe(laidOut);
    const single = WorkflowDefinitionSchema.parse({ name: "One", nodes: [{ id: "in", kind: "input", fields: [] }], edges: [] });
    expect(placeStackedNodes(single)).toBe(single);
  });

  it("ends on a cycle (a draft may hold one), still giving every node a place of its own", () => {
    const definition = WorkflowDefinitionSchema.parse({ name: "Loop", nodes: [output("a"), output("b"), output("c")], edges: [...chain("a", "b", "c"), { id: "back", source: "c", target: "a" }] });
    const places = placeStackedNodes(definition).nodes.map((node) => `${node.position.x},${node.position.y}`);
    expect(new Set(places).size).toBe(3);
  });
});
