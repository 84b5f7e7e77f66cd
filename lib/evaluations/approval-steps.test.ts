import { describe, expect, it } from "vitest";
import { WorkflowDefinitionSchema } from "@/lib/workflow/definition";
import { approvalSteps, hasOutputStep } from "./approval-steps";

// write_file changes the world; read_file does not.
const gated = (tool: string) => tool === "write_file";

const definition = (mode = "default") =>
  WorkflowDefinitionSchema.parse({
    name: "Notes",
    mode,
    nodes: [
      { id: "in", kind: "input", fields: [] },
      { id: "read", kind: "tool", tool: "read_file" },
      { id: "write", kind: "tool", tool: "write_file" },
      { id: "agent", kind: "agent", model: "m" },
      { id: "agent-write", kind: "tool", tool: "write_file" },
      { id: "out", kind: "output", value: "done" },
    ],
    edges: [
      { id: "a", source: "in", target: "read" },
      { id: "b", source: "read", target: "write" },
      { id: "c", source: "in", target: "agent" },
      { id: "d", source: "agent-write", target: "agent" },
      { id: "e", source: "agent", target: "out" },
      { id: "f", source: "write", target: "out" },
    ],
  });

describe("the steps an evaluation's runs ask a person about", () => {
  it("are the gated tool steps and the agents with a gated tool attached; a pinned one is kept from its pin instead", () => {
    expect(approvalSteps(definition(), gated, new Set())).toEqual({ asks: ["write", "agent"], pinned: [] });
    expect(approvalSteps(definition(), gated, new Set(["write", "read"]))).toEqual({ asks: ["agent"], pinned: ["write"] });
  });

  it("are none under bypass, which asks nobody", () => {
    expect(approvalSteps(definition("bypass"), gated, new Set())).toEqual({ asks: [], pinned: [] });
  });

  it("an evaluation needs an output step to score", () => {
    expect(hasOutputStep(definition())).toBe(true);
    expect(hasOutputStep({ nodes: definition().nodes.filter((node) => node.kind !== "output") })).toBe(false);
  });
});
