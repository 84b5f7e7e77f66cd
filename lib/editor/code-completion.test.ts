import { describe, expect, it } from "vitest";
import { codeCompletions, javascriptPathOf } from "./code-completion";
import { sampleField } from "./sample-paths";

describe("a Code node's completions", () => {
  it("write template paths as JavaScript, brackets where a name is not an identifier", () => {
    expect(javascriptPathOf("inputs.city")).toBe("inputs.city");
    expect(javascriptPathOf("nodes.fetch.data.rows[0].name")).toBe("nodes.fetch.data.rows[0].name");
    expect(javascriptPathOf("nodes.fetch-orders.data.rows[2]")).toBe('nodes["fetch-orders"].data.rows[2]');
  });

  it("offer the names the code receives, item and index only in a loop, then each sampled field once", () => {
    const field = sampleField("nodes.fetch-orders.data", "data", { rows: [{ total: 3 }] });
    const outside = codeCompletions([field, field], false).map((completion) => completion.label);
    expect(outside.slice(0, 2)).toEqual(["inputs", "nodes"]);
    expect(outside).not.toContain("item");
    expect(outside.filter((label) => label === 'nodes["fetch-orders"].data')).toHaveLength(1);
    expect(codeCompletions([], true).map((completion) => completion.label)).toEqual(["inputs", "nodes", "item", "index"]);
  });
});
