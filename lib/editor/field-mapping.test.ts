import { describe, expect, it } from "vitest";
import type { WorkflowSamples } from "@/lib/contracts/samples";
import { referenceOptions } from "@/lib/schema-form/references";
import type { WorkflowDefinition } from "@/lib/workflow/definition";
import { completionFields, matchingFields, previewField, referenceGroups, sampleScopeOf } from "./field-mapping";

const definition = {
  nodes: [
    { id: "in", kind: "input", fields: [{ name: "city", required: false, default: "Lahore" }, { name: "days", required: true, type: "number" }] },
    { id: "fetch", kind: "output", label: "Fetch", value: "" },
    { id: "spare", kind: "output", label: "Spare", value: "" },
    { id: "write", kind: "output", label: "Write", value: "" },
    { id: "after", kind: "output", label: "After", value: "" },
  ],
  edges: [
    { id: "e1", source: "in", target: "fetch" },
    { id: "e2", source: "fetch", target: "write" },
    { id: "e3", source: "in", target: "spare" },
    { id: "e4", source: "spare", target: "write" },
    { id: "e5", source: "write", target: "after" },
  ],
} as unknown as WorkflowDefinition;
const inputFields = [{ name: "city", required: false, default: "Lahore" }, { name: "days", required: true, type: "number" }] as never;

const samples: WorkflowSamples = {
  nodes: [
    { nodeId: "fetch", source: { kind: "run", runId: "01RUN0000K8R1T6", finishedAt: null }, content: "2 rows", data: { rows: [{ name: "Ada", age: 36 }], count: 2 } },
    { nodeId: "after", source: { kind: "pin", fromRunId: null, pinnedAt: "2026-12-01T00:00:00.000Z" }, content: "downstream" },
  ],
  inputs: null,
};
const scope = sampleScopeOf(samples, inputFields);
const titles: Record<string, string> = { fetch: "Fetch", spare: "Spare" };
const titleOf = (nodeId: string) => titles[nodeId] ?? nodeId;

describe("the picker's groups", () => {
  it("lists run inputs and only upstream nodes, with their sample's fields and where it came from", () => {
    const groups = referenceGroups(referenceOptions(definition, "write"), scope);
    expect(groups.map((group) => [group.id, group.source, group.missing])).toEqual([
      ["inputs", "defaults", null],
      ["fetch", "from run #K8R1T6", null],
      ["spare", null, "No sample yet: run or pin “Spare” to see its fields."],
    ]);
    const fetch = groups[1]!;
    // Parents before their children.
    expect(completionFields([fetch]).map((field) => field.expression)).toEqual([
      "nodes.fetch.output",
      "nodes.fetch.data",
      "nodes.fetch.data.rows",
      "nodes.fetch.data.rows[0]",
      "nodes.fetch.data.rows[0].name",
      "nodes.fetch.data.rows[0].age",
      "nodes.fetch.data.count",
    ]);
    // A downstream node's sample is never offered.
    expect(groups.some((group) => group.id === "after")).toBe(false);
    // An input without a default or a run has no value to show.
    expect(groups[0]!.fields.map((field) => [field.expression, field.preview])).toEqual([["inputs.city", '"Lahore"'], ["inputs.days", ""]]);
  });

  it("takes the newest run's inputs over the defaults", () => {
    const withRun = sampleScopeOf({ ...samples, inputs: { runId: "01RUN00000AAAAAA", values: { city: "Quetta", days: 3, gone: "x" } } }, inputFields);
    const [inputs] = referenceGroups(referenceOptions(definition, "write"), withRun);
    expect(inputs).toMatchObject({ source: "from run #AAAAAA", fields: [{ preview: '"Quetta"' }, { preview: "3" }] });
    expect(withRun.inputs.values).toEqual({ city: "Quetta", days: 3 });
  });

  it("filters completions by what was typed after {{", () => {
    const fields = completionFields(referenceGroups(referenceOptions(definition, "write"), scope));
    expect(matchingFields(fields, "rows name").map((field) => field.expression)).toEqual(["nodes.fetch.data.rows[0].name"]);
    expect(matchingFields(fields, "inp").map((field) => field.expression)).toEqual(["inputs.city", "inputs.days"]);
    expect(matchingFields(fields, "").length).toBe(fields.length);
  });
});

describe("field previews", () => {
  it("resolve with the engine's resolver: a whole template keeps its type, text joins", () => {
    expect(previewField("{{ nodes.fetch.data.rows[0].age }}", scope, titleOf)).toEqual({ status: "value", type: "number", text: "36" });
    expect(previewField("Hi {{ nodes.fetch.data.rows[0].name }} in {{ inputs.city }}", scope, titleOf)).toEqual({ status: "value", type: "text", text: "Hi Ada in Lahore" });
    expect(previewField("{{ nodes.fetch.data.rows }}", scope, titleOf)).toEqual({ status: "value", type: "array", text: '[{"name":"Ada","age":36}]' });
    expect(previewField("{{ nodes.fetch.output }}", scope, titleOf)).toEqual({ status: "value", type: "text", text: "2 rows" });
  });

  it("say why they cannot: no sample, no input value, nothing at the path, a bad template", () => {
    expect(previewField("{{ nodes.spare.output }}", scope, titleOf)).toEqual({ status: "unavailable", message: "Run or pin “Spare” to preview." });
    expect(previewField("{{ inputs.days }}", scope, titleOf)).toEqual({ status: "unavailable", message: "Start a run (or give “days” a default) to preview." });
    expect(previewField("{{ nodes.fetch.data.missing }}", scope, titleOf)).toMatchObject({ status: "unavailable", message: expect.stringContaining("nothing at this path") });
    expect(previewField("{{ nodes.fetch.bad }}", scope, titleOf)).toMatchObject({ status: "problem", message: expect.stringContaining("expected inputs.<name>") });
  });

  it("are not given for fixed values", () => {
    expect(previewField("plain text", scope, titleOf)).toBeNull();
    expect(previewField(3, scope, titleOf)).toBeNull();
  });
});
