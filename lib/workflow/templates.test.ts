import { describe, expect, it } from "vitest";
import { findReferences, resolveTemplates, TemplateError } from "./templates";

const scope = {
  inputs: { city: "Lahore", count: 3 },
  nodes: { fetch: { output: "12 rows", data: { rows: [{ name: "a" }, { name: "b" }] } } },
};

describe("templates", () => {
  it("keeps the type of a value that is exactly one template", () => {
    expect(resolveTemplates("{{ inputs.count }}", scope)).toBe(3);
    expect(resolveTemplates("{{nodes.fetch.data.rows}}", scope)).toEqual([{ name: "a" }, { name: "b" }]);
  });

  it("joins templates inside text as text, objects as JSON", () => {
    expect(resolveTemplates("Weather in {{ inputs.city }}: {{ nodes.fetch.output }}", scope)).toBe("Weather in Lahore: 12 rows");
    expect(resolveTemplates("first={{ nodes.fetch.data.rows[0] }}", scope)).toBe('first={"name":"a"}');
    expect(resolveTemplates("{{ nodes.fetch.data.rows[1].name }}!", scope)).toBe("b!");
  });

  it("resolves deeply in objects and lists, and leaves ${SECRET} alone", () => {
    expect(resolveTemplates({ a: ["{{ inputs.city }}", 1], dsn: "${DB_URL}" }, scope)).toEqual({ a: ["Lahore", 1], dsn: "${DB_URL}" });
  });

  it("says what is missing", () => {
    expect(() => resolveTemplates("{{ inputs.country }}", scope)).toThrow('the run has no input "country"');
    expect(() => resolveTemplates("{{ nodes.other.output }}", scope)).toThrow('node "other" has no result');
    expect(() => resolveTemplates("{{ env.HOME }}", scope)).toThrow(TemplateError);
    expect(() => resolveTemplates("{{ nodes.fetch.secret }}", scope)).toThrow("expected inputs.<name>, nodes.<id>.output");
  });

  it("finds references for validation", () => {
    expect(findReferences({ x: "{{ inputs.city }} and {{ nodes.fetch.data.rows[0] }}" })).toEqual([
      { kind: "input", name: "city", expression: "inputs.city" },
      { kind: "node", nodeId: "fetch", expression: "nodes.fetch.data.rows[0]" },
    ]);
  });
});
