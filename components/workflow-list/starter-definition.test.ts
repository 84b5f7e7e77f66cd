import { describe, expect, it } from "vitest";
import { WorkflowDefinitionSchema } from "@/lib/workflow/definition";
import { defaultPool, secretsFromRecord } from "@/lib/tools";
import { validateWorkflow } from "@/lib/workflow/validate";
import { starterDefinition } from "./starter-definition";

describe("starterDefinition", () => {
  it("connects an input node with no fields to an empty output node", () => {
    const definition = starterDefinition({ name: "  Triage  ", description: " Sorts tickets " });
    expect(definition).toEqual({
      name: "Triage",
      description: "Sorts tickets",
      nodes: [
        { id: "input", kind: "input", fields: [], position: { x: 0, y: 0 } },
        { id: "output", kind: "output", value: "", position: { x: 600, y: 0 } },
      ],
      edges: [{ id: "input-output", source: "input", target: "output", sourceHandle: null }],
    });
  });

  it("is a definition the API accepts", () => {
    const parsed = WorkflowDefinitionSchema.safeParse(starterDefinition({ name: "Empty" }));
    expect(parsed.success).toBe(true);
    expect(parsed.data?.description).toBe("");
  });

  it("is a sound workflow: nothing for validation to complain about", async () => {
    const result = await validateWorkflow(starterDefinition({ name: "Empty" }), { pool: defaultPool(), secrets: secretsFromRecord({}) });
    expect(result.problems).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("gives each workflow its own positions, so moving a node in one never moves another", () => {
    const first = starterDefinition({ name: "A" });
    const second = starterDefinition({ name: "B" });
    expect(first.nodes[0]?.position).not.toBe(second.nodes[0]?.position);
  });
});
