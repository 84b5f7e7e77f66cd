import { describe, expect, it } from "vitest";
import { completeTemplate, openTemplateAt } from "./template-completion";

describe("template completion", () => {
  it("finds the template open at the caret and what was typed in it", () => {
    expect(openTemplateAt("Hello {{", 8)).toEqual({ start: 6, typed: "" });
    expect(openTemplateAt("Hello {{ nodes.fe", 17)).toEqual({ start: 6, typed: "nodes.fe" });
    expect(openTemplateAt("{{ inputs.city }} and ", 22)).toBeNull();
    expect(openTemplateAt("no template", 5)).toBeNull();
    expect(openTemplateAt("{{ a }} {{ b", 12)).toEqual({ start: 8, typed: "b" });
  });

  it("puts the chosen expression in, taking a closing }} after the caret, and the caret after it", () => {
    expect(completeTemplate("Hi {{ fe!", 8, 3, "nodes.fetch.output")).toEqual({ text: "Hi {{ nodes.fetch.output }}!", caret: 27 });
    expect(completeTemplate("{{ inp }} rest", 6, 0, "inputs.city")).toEqual({ text: "{{ inputs.city }} rest", caret: 17 });
    // A later template is left alone.
    expect(completeTemplate("{{ a and {{ b }}", 4, 0, "inputs.a")).toEqual({ text: "{{ inputs.a }} and {{ b }}", caret: 14 });
  });
});
