import { describe, expect, it } from "vitest";
import type { RunDetail } from "@/lib/contracts/run";
import type { RunEvent } from "@/lib/contracts/run-event";
import { isBigRun, LIGHT_FROM_STEPS, withoutEventOutputs, withoutStepResults } from "./light-snapshot";

const step = (nodeId: string) => ({ nodeId, status: "succeeded", input: { path: `${nodeId}.txt` }, output: { content: `the text of ${nodeId}` } });

describe("a big run's light page", () => {
  it("starts at LIGHT_FROM_STEPS steps", () => {
    expect(isBigRun({ steps: Array.from({ length: LIGHT_FROM_STEPS - 1 }, (_, index) => step(`s${index}`)) } as unknown as RunDetail)).toBe(false);
    expect(isBigRun({ steps: Array.from({ length: LIGHT_FROM_STEPS }, (_, index) => step(`s${index}`)) } as unknown as RunDetail)).toBe(true);
  });

  it("leaves the steps' arguments and outputs out, but a For each step's arguments, which say how many items it has", () => {
    const run = {
      definition: { nodes: [{ id: "read", kind: "tool" }, { id: "loop", kind: "foreach" }] },
      steps: [step("read"), { ...step("loop"), input: { list: "{{ x }}", count: 3, concurrency: 2 } }],
    } as unknown as RunDetail;
    const light = withoutStepResults(run);
    expect(light.steps.map((each) => [each.nodeId, each.input, each.output])).toEqual([
      ["read", undefined, null],
      ["loop", { list: "{{ x }}", count: 3, concurrency: 2 }, null],
    ]);
    expect(run.steps[0]!.output).toEqual({ content: "the text of read" });
  });

  it("takes the outputs out of the steps' success events, and only those", () => {
    const events = [
      { seq: 1, type: "node-succeeded", nodeId: "read", payload: { output: { content: "a long text", data: { rows: [1, 2] } }, durationMs: 4 } },
      { seq: 2, type: "run-succeeded", nodeId: null, payload: { output: "the run's result" } },
    ] as unknown as RunEvent[];
    const light = withoutEventOutputs(events);
    expect(JSON.stringify(light)).not.toContain("a long text");
    expect(light[0]).toMatchObject({ seq: 1, type: "node-succeeded", payload: { durationMs: 4 } });
    expect(light[1]).toBe(events[1]);
  });
});
