import { describe, expect, it } from "vitest";
import { WorkflowDefinitionSchema } from "./definition";
import { introducedPrivilegedSettings, privilegedSettings, withoutPrivilegedSettings } from "./privileged-settings";

const base = {
  name: "w",
  nodes: [
    { id: "in", kind: "input" },
    { id: "agent", kind: "agent", provider: "openai_compatible", model: "m", mode: "bypass" },
  ],
};

describe("privileged settings", () => {
  it("finds every choice that lets actions run without asking", () => {
    const definition = WorkflowDefinitionSchema.parse({
      ...base,
      mode: "accept_edits",
      guardrails: { shellPolicy: "open", networkPolicy: "open", mcpPolicy: "open", writeScope: ["reports/**"] },
    });
    expect(privilegedSettings(definition).map((setting) => `${setting.path}=${setting.value}`)).toEqual([
      "mode=accept_edits",
      "guardrails.shellPolicy=open",
      "guardrails.networkPolicy=open",
      "guardrails.mcpPolicy=open",
      "guardrails.writeScope=reports/**",
      "nodes.1.mode=bypass",
    ]);
    expect(privilegedSettings(WorkflowDefinitionSchema.parse({ name: "plain", nodes: [] }))).toEqual([]);
  });

  it("counts as introduced only what the stored version did not have", () => {
    const before = WorkflowDefinitionSchema.parse({ ...base, guardrails: { shellPolicy: "open" } });
    const after = WorkflowDefinitionSchema.parse({ ...base, guardrails: { shellPolicy: "open", networkPolicy: "open" } });
    expect(introducedPrivilegedSettings(after, before).map((setting) => setting.path)).toEqual(["guardrails.networkPolicy"]);
    expect(introducedPrivilegedSettings(before, null).map((setting) => setting.path)).toEqual(["guardrails.shellPolicy", "nodes.1.mode"]);
  });

  it("strips them for an import, and says what it dropped", () => {
    const file = WorkflowDefinitionSchema.parse({ ...base, mode: "bypass", guardrails: { shellPolicy: "open", writeScope: ["**"] } });
    const { definition, dropped } = withoutPrivilegedSettings(file);
    expect(definition.mode).toBe("default");
    expect(definition.guardrails).toMatchObject({ shellPolicy: "gated", writeScope: [] });
    expect(definition.nodes[1]).not.toHaveProperty("mode", "bypass");
    expect(privilegedSettings(definition)).toEqual([]);
    expect(dropped).toHaveLength(4);
    // Plan mode is stricter than default: kept.
    expect(withoutPrivilegedSettings(WorkflowDefinitionSchema.parse({ ...base, mode: "plan", nodes: [] })).definition.mode).toBe("plan");
  });
});
