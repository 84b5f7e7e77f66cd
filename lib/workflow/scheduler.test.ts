import { describe, expect, it } from "vitest";
import type { WorkflowEdge } from "./definition";
import type { OnErrorAction } from "@/lib/contracts/execution-settings";
import { buildGraph, failureAction, nextSteps, nodesOnCycles, type NodeStatus } from "./scheduler";

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
  const run = (statuses: Record<string, NodeStatus>, failures: Record<string, OnErrorAction> = {}) => nextSteps(graph, { statuses, routes: {}, failures });

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

  it("waits for a step between attempts as for one that runs", () => {
    expect(run({ in: "succeeded", a: "retrying", b: "succeeded" })).toEqual({ start: [], skip: [], finished: false, failed: false });
  });

  it("with continue, runs what a failure feeds as if the step had succeeded", () => {
    expect(run({ in: "succeeded", a: "failed", b: "succeeded" }, { a: "continue" })).toEqual({ start: ["c"], skip: [], finished: false, failed: false });
    const chain = buildGraph({ nodes: nodes("a", "b", "c"), edges: [edge("a", "b"), edge("b", "c")] });
    expect(nextSteps(chain, { statuses: { a: "failed" }, routes: {}, failures: { a: "continue" } }).start).toEqual(["b"]);
  });

  it("counts a failure nobody handles as stopping the run", () => {
    expect(run({ in: "succeeded", a: "failed", b: "succeeded" }, { a: "stop" }).failed).toBe(true);
    expect(run({ in: "succeeded", a: "failed", b: "succeeded" }).failed).toBe(true);
  });
});

describe("error edges", () => {
  //   in -> fetch -> use -> out
  //         fetch -(error)-> notify -> out
  const graph = buildGraph({
    nodes: nodes("in:input", "fetch", "use", "notify", "out:output"),
    edges: [edge("in", "fetch"), edge("fetch", "use"), edge("fetch", "notify", "error"), edge("use", "out"), edge("notify", "out")],
  });

  it("takes only the error branch when the step fails, and skips its normal branch", () => {
    const decision = nextSteps(graph, { statuses: { in: "succeeded", fetch: "failed" }, routes: {}, failures: { fetch: "error-edge" } });
    expect(decision).toEqual({ start: ["notify"], skip: ["use"], finished: false, failed: false });
    const joined = nextSteps(graph, { statuses: { in: "succeeded", fetch: "failed", use: "skipped", notify: "succeeded" }, routes: {}, failures: { fetch: "error-edge" } });
    expect(joined.start).toEqual(["out"]);
  });

  it("skips the error branch when the step succeeds", () => {
    const decision = nextSteps(graph, { statuses: { in: "succeeded", fetch: "succeeded" }, routes: {} });
    expect(decision).toEqual({ start: ["use"], skip: ["notify"], finished: false, failed: false });
  });

  it("stops the run when an error path has no error edge to follow", () => {
    expect(failureAction(graph, "fetch", "error-edge")).toBe("error-edge");
    expect(failureAction(graph, "use", "error-edge")).toBe("stop");
    expect(failureAction(graph, "use", "continue")).toBe("continue");
  });

  it("follows a failed router's default route when it continues", () => {
    const routed = buildGraph({ nodes: nodes("r:router", "x", "y"), edges: [edge("r", "x", "big"), edge("r", "y", "default")] });
    expect(nextSteps(routed, { statuses: { r: "failed" }, routes: {}, failures: { r: "continue" } })).toMatchObject({ start: ["y"], skip: ["x"] });
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
    const decision = nextSteps(graph, { statuses: { r: "succeeded" }, routes: { r: "big" } });
    expect(decision.start).toEqual(["x"]);
    expect(decision.skip).toEqual(["y"]);
  });

  it("runs the join after the live branch", () => {
    const decision = nextSteps(graph, { statuses: { r: "succeeded", x: "succeeded", y: "skipped" }, routes: { r: "big" } });
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
    expect(nextSteps(graph, { statuses: {}, routes: {} }).start).toEqual(["in"]);
    expect(nextSteps(graph, { statuses: { in: "succeeded" }, routes: {} }).start).toEqual(["agent"]);
    expect(nextSteps(graph, { statuses: { in: "succeeded", agent: "succeeded", out: "succeeded" }, routes: {} }).finished).toBe(true);
  });

  it("are indexed per agent", () => {
    expect(graph.attachments.get("agent")).toEqual(["sql", "write"]);
    expect(graph.attachedTo.get("sql")).toEqual(["agent"]);
  });
});
