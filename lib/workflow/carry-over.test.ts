import { describe, expect, it } from "vitest";
import type { NodeStatus, StepRecord } from "@/lib/contracts/run";
import { stepsToCarryOver } from "./carry-over";
import type { WorkflowEdge } from "./definition";

const edge = (source: string, target: string, sourceHandle: string | null = null): WorkflowEdge => ({ id: `${source}-${target}`, source, target, sourceHandle });
const nodes = (...specs: string[]) =>
  specs.map((spec) => {
    const [id, kind = "tool"] = spec.split(":");
    return { id: id!, kind };
  }) as never;

/** The source run's steps, by status; a succeeded step's output names it. */
function steps(statuses: Record<string, NodeStatus>): StepRecord[] {
  return Object.entries(statuses).map(([nodeId, status]) => ({
    nodeId,
    status,
    input: { for: nodeId },
    output: status === "succeeded" ? { content: `${nodeId} done` } : null,
    error: status === "failed" ? "broke" : null,
    errorKind: status === "failed" ? "failed" : null,
    attempt: status === "pending" || status === "skipped" ? 0 : 1,
    retryAt: null,
    startedAt: status === "pending" || status === "skipped" ? null : "2026-12-02T06:00:00.000Z",
    finishedAt: status === "pending" ? null : "2026-12-02T06:00:01.000Z",
    carriedFromRunId: null,
    carriedAs: null,
  }));
}

const kept = (definition: Parameters<typeof stepsToCarryOver>[0], statuses: Record<string, NodeStatus>) =>
  stepsToCarryOver(definition, steps(statuses), "source-run").map((step) => step.nodeId);

describe("stepsToCarryOver", () => {
  const line = { nodes: nodes("in:input", "a", "b", "out:output"), edges: [edge("in", "a"), edge("a", "b"), edge("b", "out")] };

  it("keeps what succeeded before the failure, with its result, arguments and times, and nothing from the failure on", () => {
    const carried = stepsToCarryOver(line, steps({ in: "succeeded", a: "succeeded", b: "failed", out: "skipped" }), "source-run");
    expect(carried.map((step) => step.nodeId)).toEqual(["in", "a"]);
    expect(carried[1]).toEqual({
      nodeId: "a",
      fromRunId: "source-run",
      output: { content: "a done" },
      input: { for: "a" },
      attempt: 1,
      startedAt: "2026-12-02T06:00:00.000Z",
      finishedAt: "2026-12-02T06:00:01.000Z",
    });
  });

  it("keeps nothing when the first step failed, and everything before a cancelled step", () => {
    expect(kept(line, { in: "failed", a: "skipped", b: "skipped", out: "skipped" })).toEqual([]);
    expect(kept(line, { in: "succeeded", a: "succeeded", b: "pending", out: "pending" })).toEqual(["in", "a"]);
  });

  it("keeps a branch that finished beside the failure, but not a join that waits on the failed side", () => {
    //   in -> a -> join
    //   in -> b -> join      (b failed; a finished)
    const diamond = { nodes: nodes("in:input", "a", "b", "join"), edges: [edge("in", "a"), edge("in", "b"), edge("a", "join"), edge("b", "join")] };
    expect(kept(diamond, { in: "succeeded", a: "succeeded", b: "failed", join: "skipped" })).toEqual(["in", "a"]);
  });

  it("runs again whatever read a handled failure: the failed step may succeed this time", () => {
    //   in -> fetch -> status;  fetch -(error)-> down -> out
    const errorPath = {
      nodes: nodes("in:input", "fetch", "status", "down", "out"),
      edges: [edge("in", "fetch"), edge("fetch", "status"), edge("fetch", "down", "error"), edge("down", "out")],
    };
    expect(kept(errorPath, { in: "succeeded", fetch: "failed", status: "skipped", down: "succeeded", out: "failed" })).toEqual(["in"]);
  });

  it("keeps a join after a kept router whose other branch was skipped (it is skipped again the same way)", () => {
    //   in -> route -(yes)-> a -> join -> fail
    //            \-(no)--> b -> join
    const routed = {
      nodes: nodes("in:input", "route:router", "a", "b", "join", "fail"),
      edges: [edge("in", "route"), edge("route", "a", "yes"), edge("route", "b", "no"), edge("a", "join"), edge("b", "join"), edge("join", "fail")],
    };
    expect(kept(routed, { in: "succeeded", route: "succeeded", a: "succeeded", b: "skipped", join: "succeeded", fail: "failed" })).toEqual(["in", "route", "a", "join"]);
  });

  it("keeps no tool an agent calls (it is no step) and no step whose result was never stored", () => {
    const agent = { nodes: nodes("in:input", "tool", "agent:agent", "after"), edges: [edge("in", "agent"), edge("tool", "agent"), edge("agent", "after")] };
    expect(kept(agent, { in: "succeeded", tool: "skipped", agent: "succeeded", after: "failed" })).toEqual(["in", "agent"]);
    const unstored = steps({ in: "succeeded", a: "succeeded", b: "failed", out: "skipped" }).map((step) => (step.nodeId === "in" ? { ...step, output: null } : step));
    expect(stepsToCarryOver(line, unstored, "source-run")).toEqual([]);
  });
});
