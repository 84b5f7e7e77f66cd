import { describe, expect, it } from "vitest";
import type { StepOutput } from "@/lib/contracts/run";
import type { WorkflowEdge } from "./definition";
import { planTestRun, type RunOutput, type TestRunSources } from "./test-run-plan";

const edge = (source: string, target: string): WorkflowEdge => ({ id: `${source}-${target}`, source, target, sourceHandle: null });
const nodes = (...specs: string[]) =>
  specs.map((spec) => {
    const [id, kind = "tool"] = spec.split(":");
    return { id: id!, kind };
  }) as never;
const output = (content: string): StepOutput => ({ content });
const ran = (runId: string, content: string): RunOutput => ({ runId, output: output(content), input: null, attempt: 1, startedAt: null, finishedAt: null });
const sources = (parts: Partial<{ pins: Record<string, string>; lastRun: Record<string, string>; typed: Record<string, string> }>): TestRunSources => ({
  pins: new Map(Object.entries(parts.pins ?? {}).map(([id, content]) => [id, { output: output(content), fromRunId: null }])),
  lastRun: new Map(Object.entries(parts.lastRun ?? {}).map(([id, content]) => [id, ran("01LAST", content)])),
  typed: new Map(Object.entries(parts.typed ?? {}).map(([id, content]) => [id, output(content)])),
});

// in → fetch → summarise → write, and in → side
const definition = {
  nodes: nodes("in:input", "fetch", "summarise", "write", "side"),
  edges: [edge("in", "fetch"), edge("fetch", "summarise"), edge("summarise", "write"), edge("in", "side")],
};

describe("planTestRun", () => {
  it("runs one step with its upstream kept from a pin before the last run, and leaves out everything else", () => {
    const plan = planTestRun(definition, "summarise", "step", sources({ pins: { fetch: "pinned" }, lastRun: { fetch: "old" } }));
    expect(plan.runs).toEqual(["in", "summarise"]);
    expect(plan.carried.map((step) => [step.nodeId, step.as, step.output.content])).toEqual([["fetch", "pin", "pinned"]]);
    expect(plan.excluded).toEqual(["write", "side"]);
    expect(plan.missing).toEqual([]);
  });

  it("keeps an upstream step from the workflow's last run when it has no pin, then from typed values", () => {
    const fromRun = planTestRun(definition, "summarise", "step", sources({ lastRun: { fetch: "from the run" }, typed: { fetch: "typed" } }));
    expect(fromRun.carried).toMatchObject([{ nodeId: "fetch", fromRunId: "01LAST", output: { content: "from the run" } }]);
    expect(fromRun.carried[0]!.as).toBeUndefined();
    const typed = planTestRun(definition, "summarise", "step", sources({ typed: { fetch: "typed" } }));
    expect(typed.carried).toMatchObject([{ nodeId: "fetch", fromRunId: null, as: "typed" }]);
  });

  it("names a direct upstream step with nothing to hand on as missing", () => {
    const plan = planTestRun(definition, "write", "step", sources({ lastRun: { fetch: "x" } }));
    expect(plan.missing).toEqual(["summarise"]);
    expect(plan.sources).toEqual([
      { nodeId: "in", source: "runs", fromRunId: null },
      { nodeId: "fetch", source: "last-run", fromRunId: "01LAST" },
      { nodeId: "summarise", source: "missing", fromRunId: null },
    ]);
  });

  it("runs up to a node along the paths that lead to it, not further, keeping pinned steps and not walking behind them", () => {
    const all = planTestRun(definition, "summarise", "up-to", sources({ lastRun: { fetch: "ignored: up to here runs the path" } }));
    expect(all.runs).toEqual(["in", "fetch", "summarise"]);
    expect(all.carried).toEqual([]);
    expect(all.excluded).toEqual(["write", "side"]);
    const pinned = planTestRun(definition, "write", "up-to", sources({ pins: { summarise: "pinned" } }));
    expect(pinned.runs).toEqual(["write"]);
    expect(pinned.carried.map((step) => step.nodeId)).toEqual(["summarise"]);
    expect(pinned.excluded).toEqual(["in", "fetch", "side"]);
  });

  it("keeps a trigger on the way from its pin or the last run (a test run does not start from it), else names it missing", () => {
    const hooked = { nodes: nodes("hook:webhook", "act"), edges: [edge("hook", "act")] };
    expect(planTestRun(hooked, "act", "up-to", sources({})).missing).toEqual(["hook"]);
    expect(planTestRun(hooked, "act", "up-to", sources({ lastRun: { hook: "request" } })).carried).toMatchObject([{ nodeId: "hook", fromRunId: "01LAST" }]);
  });
});
