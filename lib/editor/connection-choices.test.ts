import { describe, expect, it } from "vitest";
import type { WorkflowDefinition } from "@/lib/workflow/definition";
import { connectionChoices, edgeLabel, edgeName, type NodeNames } from "./connection-choices";
import { createFlowEdgeMapper } from "./to-flow";
import { edgeForConnection } from "./definition-edits";

const definition: Pick<WorkflowDefinition, "nodes" | "edges"> = {
  nodes: [
    { id: "input", kind: "input", position: { x: 0, y: 0 }, fields: [] },
    { id: "router", kind: "router", position: { x: 300, y: 0 }, routes: [{ id: "big", label: "Big order", value: "{{ inputs.total }}", operator: "is_true", compareTo: "" }] },
    { id: "output", kind: "output", position: { x: 600, y: 0 }, value: "" },
  ],
  edges: [],
};

const titles: Record<string, string> = { input: "Run inputs", router: "Router", output: "Output" };
const names: NodeNames = {
  titleOf: (nodeId) => titles[nodeId] ?? "Unknown",
  outputsOf: (nodeId) => (nodeId === "router" ? [{ id: "big", label: "Big order" }, { id: "default", label: "default" }] : []),
  hasErrorPath: () => false,
};

describe("connectionChoices", () => {
  it("offers every other node once, by title, from a node with one output", () => {
    const choices = connectionChoices(definition, "input", names);
    expect(choices.map((choice) => choice.label)).toEqual(["Router", "Output"]);
    expect(choices.map((choice) => choice.connection)).toEqual([
      { source: "input", target: "router", sourceHandle: null },
      { source: "input", target: "output", sourceHandle: null },
    ]);
  });

  it("offers each target once per route of a router, so the canvas's rule accepts what it offers", () => {
    const choices = connectionChoices(definition, "router", names);
    expect(choices.map((choice) => choice.label)).toEqual([
      "Run inputs (route Big order)",
      "Output (route Big order)",
      "Run inputs (route default)",
      "Output (route default)",
    ]);
    const toOutput = choices.filter((choice) => choice.connection.target === "output");
    expect(toOutput.map((choice) => edgeForConnection(definition, choice.connection))).toEqual([
      { edge: { id: "router.big->output", source: "router", target: "output", sourceHandle: "big" } },
      { edge: { id: "router.default->output", source: "router", target: "output", sourceHandle: "default" } },
    ]);
  });

  it("leaves refusals to edgeForConnection, which says why", () => {
    const [backToInput] = connectionChoices(definition, "output", names);
    expect(backToInput!.label).toBe("Run inputs");
    expect(edgeForConnection(definition, backToInput!.connection)).toEqual({ refused: "Run inputs start the workflow: nothing can flow into them." });
  });
});

describe("edgeName", () => {
  it("names the other node, with the route when the source is a router", () => {
    expect(edgeName(names, "output", "router", "big")).toBe("Output (route Big order)");
    expect(edgeName(names, "router", "input", null)).toBe("Router");
  });
});

describe("edge labels on the canvas", () => {
  it("name an edge by the cards it joins, never by ids, and follow a renamed card", () => {
    const edge = { id: "e1", source: "router", target: "output", sourceHandle: "big" };
    expect(edgeLabel(names, edge)).toBe("Connection from Router to Output (route Big order)");
    const mapEdges = createFlowEdgeMapper();
    const first = mapEdges([edge], new Set(), (each) => edgeLabel(names, each));
    expect(first[0]!.ariaLabel).toBe("Connection from Router to Output (route Big order)");
    // The same edge keeps its object while nothing changed, and gets a new one when a card's title does.
    expect(mapEdges([edge], new Set(), (each) => edgeLabel(names, each))[0]).toBe(first[0]);
    const renamed: NodeNames = { ...names, titleOf: (nodeId) => (nodeId === "output" ? "Reply" : names.titleOf(nodeId)) };
    expect(mapEdges([edge], new Set(), (each) => edgeLabel(renamed, each))[0]!.ariaLabel).toBe("Connection from Router to Reply (route Big order)");
  });
});

describe("error paths", () => {
  const withFetch: Pick<WorkflowDefinition, "nodes" | "edges"> = {
    nodes: [
      ...definition.nodes,
      { id: "fetch", kind: "tool", position: { x: 0, y: 200 }, tool: "http", operation: null, settings: {}, arguments: {}, execution: { onError: "error-edge" } },
      { id: "plain", kind: "tool", position: { x: 0, y: 400 }, tool: "http", operation: null, settings: {}, arguments: {} },
    ],
    edges: [],
  };
  const withErrorPath: NodeNames = { ...names, titleOf: (nodeId) => (nodeId === "fetch" ? "Fetch" : names.titleOf(nodeId)), hasErrorPath: (nodeId) => nodeId === "fetch" };

  it("offers each target once more by the error path of a node that follows one, and the canvas accepts it", () => {
    const choices = connectionChoices(withFetch, "fetch", withErrorPath).filter((choice) => choice.connection.target === "output");
    expect(choices.map((choice) => choice.label)).toEqual(["Output", "Output (error path)"]);
    expect(edgeForConnection(withFetch, choices[1]!.connection)).toEqual({ edge: { id: "fetch.error->output", source: "fetch", target: "output", sourceHandle: "error" } });
  });

  it("refuses an error edge from a node that does not follow its error path, saying what to choose", () => {
    expect(edgeForConnection(withFetch, { source: "plain", target: "output", sourceHandle: "error" })).toEqual({
      refused: "Choose “Follow the error path” under On failure first: then the card has an error handle to connect from.",
    });
  });

  it("names an error edge as an error path, and draws it as one", () => {
    const edge = { id: "e2", source: "fetch", target: "output", sourceHandle: "error" };
    expect(edgeLabel(withErrorPath, edge)).toBe("Error path from Fetch to Output");
    expect(createFlowEdgeMapper()([edge], new Set(), (each) => edgeLabel(withErrorPath, each))[0]).toMatchObject({
      ariaLabel: "Error path from Fetch to Output",
      className: "error-edge",
      sourceHandle: "error",
    });
  });
});
