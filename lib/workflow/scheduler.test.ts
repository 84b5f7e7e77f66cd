import { describe, expect, it } from "vitest";
import type { WorkflowEdge } from "./definition";
import { buildGraph, nextSteps, nodesOnCycles, type NodeStatus } from "./scheduler";

const edge = (source: string, target: string, sourceHandle: string | null = null): WorkflowEdge => ({
  id: `${source}-${target}`,
  source,
  target,
  sourceHandle,
});
const nodes = (...specs: string[]) =>
  specs.map((spec) => {
    const [id, kind = "tool"] = spec.split(":");
    return { id: id!, kind };
  }) as never;

describe("nextSteps", () => {
  //   in -> a -> c
  //   in -> b -> c
  const graph = buildGraph({ nodes: nodes("in:input", "a", "b", "c"), edges: [edge("in", "a"), edge("in", "b"), edge("a", "c"), edge("b", "c")] });
  const run = (statuses: Record<string, NodeStatus>, onError: "stop" | "continue" = "stop") =>
    nextSteps(graph, { statuses, routes: {} }, onError);

  it("starts the roots first", () => {
    expect(run({})).toEqual({ start: ["in"], skip: [], finished: false, failed: false });
  });

  it("starts independent branches together", () => {
    expect(run({ in: "succeeded" }).start).toEqual(["a", "b"]);
  });

  it("waits for every input of a join", () => {
    expect(run({ in: "succeeded", a: "succeeded", b: "running" }).start).toEqual([]);
    expect(run({ in: "succeeded", a: "succeeded", b: "succeeded" }).start).toEqual(["c"]);
  });

  it("is finished when nothing is pending or active", () => {
    expect(run({ in: "succeeded", a: "succeeded", b: "succeeded", c: "succeeded" }).finished).toBe(true);
    expect(run({ in: "succeeded", a: "succeeded", b: "waiting", c: "pending" }).finished).toBe(false);
  });

  it("stops at the first failure, once nothing is active", () => {
    expect(run({ in: "succeeded", a: "failed", b: "running" })).toEqual({ start: [], skip: [], finished: false, failed: true });
    expect(run({ in: "succeeded", a: "failed", b: "succeeded" })).toEqual({ start: [], skip: [], finished: true, failed: true });
  });

  it("with onError continue, runs a join while one input is live and skips what only a failure feeds", () => {
    expect(run({ in: "succeeded", a: "failed", b: "succeeded" }, "continue").start).toEqual(["c"]);
    const chain = buildGraph({ nodes: nodes("a", "b", "c"), edges: [edge("a", "b"), edge("b", "c")] });
    expect(nextSteps(chain, { statuses: { a: "failed" }, routes: {} }, "continue")).toEqual({
      start: [],
      skip: ["b", "c"],
      finished: true,
      failed: false,
    });
  });
});

describe("routers", () => {
  //   r -(big)-> x -> out
  //   r -(default)-> y -> out
  const graph = buildGraph({
    nodes: nodes("r:router", "x", "y", "out:output"),
    edges: [edge("r", "x", "big"), edge("r", "y", "default"), edge("x", "out"), edge("y", "out")],
  });

  it("follows the chosen route and skips the other branch", () => {
    const decision = nextSteps(graph, { statuses: { r: "succeeded" }, routes: { r: "big" } }, "stop");
    expect(decision.start).toEqual(["x"]);
    expect(decision.skip).toEqual(["y"]);
  });

  it("runs the join after the live branch", () => {
    const decision = nextSteps(graph, { statuses: { r: "succeeded", x: "succeeded", y: "skipped" }, routes: { r: "big" } }, "stop");
    expect(decision.start).toEqual(["out"]);
  });
});

describe("nodesOnCycles", () => {
  it("finds the nodes of a loop and not those merely behind it", () => {
    const graph = buildGraph({ nodes: nodes("a", "b", "c", "d"), edges: [edge("a", "b"), edge("b", "c"), edge("c", "b"), edge("c", "d")] });
    expect(nodesOnCycles(graph).sort()).toEqual(["b", "c"]);
  });
  it("is empty for a DAG", () => {
    expect(nodesOnCycles(buildGraph({ nodes: nodes("a", "b"), edges: [edge("a", "b")] }))).toEqual([]);
  });
});

describe("tools attached to an agent", () => {
  //   in -> agent -> out, with sql and write attached to agent
  const graph = buildGraph({
    nodes: nodes("in:input", "agent:agent", "sql", "write", "out:output"),
    edges: [edge("in", "agent"), edge("sql", "agent"), edge("write", "agent"), edge("agent", "out")],
  });

  it("are never scheduled and do not block the agent", () => {
    expect(graph.nodeIds).toEqual(["in", "agent", "out"]);
    expect(nextSteps(graph, { statuses: {}, routes: {} }, "stop").start).toEqual(["in"]);
    expect(nextSteps(graph, { statuses: { in: "succeeded" }, routes: {} }, "stop").start).toEqual(["agent"]);
    expect(nextSteps(graph, { statuses: { in: "succeeded", agent: "succeeded", out: "succeeded" }, routes: {} }, "stop").finished).toBe(true);
  });

  it("are indexed per agent", () => {
    expect(graph.attachments.get("agent")).toEqual(["sql", "write"]);
    expect(graph.attachedTo.get("sql")).toEqual(["agent"]);
  });
});
