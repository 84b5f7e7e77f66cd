import { describe, expect, it } from "vitest";
import type { WorkflowDefinition } from "@/lib/workflow/definition";
import { coerceDefault, inputFieldErrors, nextInputName } from "./input-fields";
import { inputTemplate, insertAt, isTemplate, nodeTemplate, referenceOptions, upstreamNodeIds } from "./references";
import { OPERATOR_WORDS } from "@/nodes/router/definition";
import { move, nextRouteId } from "./router-operators";

const position = { x: 0, y: 0 };
const graph: Pick<WorkflowDefinition, "nodes" | "edges"> = {
  nodes: [
    { id: "start", kind: "input", position, fields: [{ name: "city", label: "City", type: "string", required: true }, { name: "days", type: "number", required: false }] },
    { id: "fetch", kind: "tool", tool: "http", operation: null, settings: {}, arguments: {}, position },
    { id: "read", kind: "tool", tool: "read_file", operation: null, settings: {}, arguments: {}, position, label: "Read notes" },
    { id: "branch", kind: "router", routes: [], position },
    { id: "write", kind: "tool", tool: "write_file", operation: null, settings: {}, arguments: {}, position },
    { id: "aside", kind: "tool", tool: "http", operation: null, settings: {}, arguments: {}, position },
    { id: "done", kind: "output", value: "", position },
  ],
  edges: [
    { id: "e1", source: "start", target: "fetch", sourceHandle: null },
    { id: "e2", source: "start", target: "read", sourceHandle: null },
    { id: "e3", source: "fetch", target: "branch", sourceHandle: null },
    { id: "e4", source: "read", target: "branch", sourceHandle: null },
    { id: "e5", source: "branch", target: "write", sourceHandle: "default" },
    { id: "e6", source: "write", target: "done", sourceHandle: null },
    { id: "e7", source: "start", target: "aside", sourceHandle: null },
  ],
};

describe("upstreamNodeIds", () => {
  it("lists every node before this one, nearest first", () => {
    expect(upstreamNodeIds(graph, "done")).toEqual(["write", "branch", "fetch", "read", "start"]);
    expect(upstreamNodeIds(graph, "branch")).toEqual(["fetch", "read", "start"]);
    expect(upstreamNodeIds(graph, "start")).toEqual([]);
  });
  it("leaves out parallel branches, and survives a cycle", () => {
    expect(upstreamNodeIds(graph, "write")).not.toContain("aside");
    const cyclic = { nodes: graph.nodes.slice(1, 3), edges: [
      { id: "a", source: "fetch", target: "read", sourceHandle: null },
      { id: "b", source: "read", target: "fetch", sourceHandle: null },
    ] };
    expect(upstreamNodeIds(cyclic, "fetch")).toEqual(["read"]);
  });
});

describe("templates and references", () => {
  it("builds templates", () => {
    expect(inputTemplate("city")).toBe("{{ inputs.city }}");
    expect(nodeTemplate("fetch")).toBe("{{ nodes.fetch.output }}");
    expect(nodeTemplate("fetch", "rows[0]")).toBe("{{ nodes.fetch.data.rows[0] }}");
    expect(isTemplate("Hello {{ inputs.city }}!")).toBe(true);
    expect(isTemplate("${DB_URL}")).toBe(false);
    expect(isTemplate(3)).toBe(false);
  });

  it("offers the run's inputs and upstream outputs, by title", () => {
    const options = referenceOptions(graph, "write", new Map([["http", "HTTP Request"]]));
    expect(options).toEqual([
      { group: "Run inputs", label: "City (city)", template: "{{ inputs.city }}", source: { kind: "input", name: "city" } },
      { group: "Run inputs", label: "days", template: "{{ inputs.days }}", source: { kind: "input", name: "days" } },
      { group: "Upstream steps", label: "Router (branch) — output", template: "{{ nodes.branch.output }}", source: { kind: "node", nodeId: "branch", title: "Router" } },
      { group: "Upstream steps", label: "HTTP Request (fetch) — output", template: "{{ nodes.fetch.output }}", source: { kind: "node", nodeId: "fetch", title: "HTTP Request" } },
      { group: "Upstream steps", label: "Read notes (read) — output", template: "{{ nodes.read.output }}", source: { kind: "node", nodeId: "read", title: "Read notes" } },
    ]);
  });

  it("inserts at the cursor, replacing the selection", () => {
    expect(insertAt("Hello !", 6, 6, "{{ inputs.city }}")).toEqual({ text: "Hello {{ inputs.city }}!", caret: 23 });
    expect(insertAt("Hello world", 6, 11, "you")).toEqual({ text: "Hello you", caret: 9 });
    expect(insertAt("ab", 10, 20, "c")).toEqual({ text: "abc", caret: 3 });
  });
});

describe("input fields and routes", () => {
  it("flags invalid and duplicate names", () => {
    expect(inputFieldErrors([{ name: "city" }, { name: "2nd" }, { name: "city" }, { name: "" }, { name: "ok_1" }])).toEqual({
      0: 'Another input is already named "city".',
      1: expect.stringContaining("letter or _"),
      2: 'Another input is already named "city".',
      3: expect.stringContaining("Give the input a name"),
    });
    expect(nextInputName([{ name: "input_1" }])).toBe("input_2");
  });
  it("coerces defaults to the field's type", () => {
    expect(coerceDefault("number", "3.5")).toBe(3.5);
    expect(coerceDefault("number", "")).toBeUndefined();
    expect(coerceDefault("boolean", "false")).toBe(false);
    expect(coerceDefault("boolean", "")).toBeUndefined();
    expect(coerceDefault("string", "x")).toBe("x");
  });
  it("names operators in words and numbers routes", () => {
    expect(OPERATOR_WORDS.greater_than.label).toBe("is greater than");
    expect(OPERATOR_WORDS.is_empty.needsCompareTo).toBe(false);
    expect(nextRouteId(["route_1", "route_3"])).toBe("route_2");
    expect(move(["a", "b", "c"], 0, 2)).toEqual(["b", "c", "a"]);
    expect(move(["a", "b"], 0, -1)).toEqual(["a", "b"]);
  });
});
