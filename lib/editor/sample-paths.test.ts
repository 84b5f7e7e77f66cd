import { describe, expect, it } from "vitest";
import { flattenFields, previewOf, sampleField } from "./sample-paths";
import { boundStepOutput } from "@/lib/workflow/bound-output";
import { parseExpression, resolveTemplates, scopeEntryOf } from "@/lib/workflow/templates";

const sample = { status: 200, body: { items: [{ name: "Ada", tags: ["x"] }, { name: "Grace" }], total: 2, next: null }, "content-type": "json", "not a name": 1 };

describe("sample paths", () => {
  it("lists nested objects as a tree and arrays by index, each with its type and a preview", () => {
    const field = sampleField("nodes.fetch.data", "data", sample);
    expect(field).toMatchObject({ type: "object", preview: "{4 fields}", leftOut: 1 });
    const labels = field.children.map((child) => child.label);
    expect(labels).toEqual(["status", "body", "content-type"]);
    const body = field.children[1]!;
    expect(body.children.map((child) => [child.expression, child.type, child.preview])).toEqual([
      ["nodes.fetch.data.body.items", "array", "[2 items]"],
      ["nodes.fetch.data.body.total", "number", "2"],
      ["nodes.fetch.data.body.next", "null", "null"],
    ]);
    const items = body.children[0]!;
    expect(items.children.map((child) => child.label)).toEqual(["[0] first item", "[1]"]);
    expect(items.children[0]!.children.map((child) => [child.expression, child.preview])).toEqual([
      ["nodes.fetch.data.body.items[0].name", '"Ada"'],
      ["nodes.fetch.data.body.items[0].tags", "[1 item]"],
    ]);
  });

  it("gives expressions the engine parses and resolves to the listed value", () => {
    const fields = flattenFields([sampleField("nodes.fetch.data", "data", sample)]);
    const scope = { inputs: {}, nodes: { fetch: { output: "", data: sample } } };
    for (const field of fields) {
      expect(() => parseExpression(field.expression)).not.toThrow();
      const value = resolveTemplates(`{{ ${field.expression} }}`, scope);
      expect(previewOf(value)).toBe(field.preview);
    }
  });

  it("keeps a huge or deep output within the limits, reading only what it lists", () => {
    // Counted reads, not a stopwatch: the work done is the claim, and it holds on a busy machine.
    const reads = { huge: 0, long: 0, deep: 0 };
    const counted = <Value extends object>(value: Value, what: keyof typeof reads): Value =>
      new Proxy(value, {
        get(target, property, receiver) {
          reads[what] += 1;
          return Reflect.get(target, property, receiver) as unknown;
        },
      });
    const hugeFields: Record<string, unknown> = {};
    for (let index = 0; index < 20_000; index += 1) hugeFields[`key${index}`] = { rows: Array.from({ length: 3 }, (_, row) => ({ row })) };
    const huge = counted(hugeFields, "huge");
    let deep: unknown = "bottom";
    for (let level = 0; level < 5_000; level += 1) deep = counted({ next: deep }, "deep");
    const long = counted(Array.from({ length: 500_000 }, (_, index) => index), "long");
    const wide = sampleField("nodes.big.data", "data", { huge, long, deep });
    const all = flattenFields([wide]);
    expect(all.length).toBeLessThanOrEqual(301);
    const longField = wide.children.find((child) => child.label === "long")!;
    expect(longField).toMatchObject({ preview: "[500000 items]", leftOut: 500_000 - 3 });
    expect(longField.children.map((child) => child.expression)).toEqual(["nodes.big.data.long[0]", "nodes.big.data.long[1]", "nodes.big.data.long[2]"]);
    expect(wide.children.find((child) => child.label === "huge")).toMatchObject({ preview: "{20000 fields}", leftOut: 20_000 - 50 });
    // Breadth first: every branch's top is listed before the budget goes to the depths of one.
    expect(wide.children.map((child) => child.label)).toEqual(["huge", "long", "deep"]);
    // One pass over the widest object's keys (Object.keys, no value read) and a read of each field listed; nothing per
    // item of the long array beyond those listed, nothing per level of the deep chain below the depth limit.
    expect(reads.huge).toBeLessThanOrEqual(60);
    expect(reads.long).toBeLessThanOrEqual(20);
    expect(reads.deep).toBeLessThanOrEqual(20);
    // Depth stops at six levels below the value.
    const chain = flattenFields([sampleField("nodes.deep.data", "data", deep)]);
    expect(Math.max(...chain.map((field) => field.expression.split(".").length - 3))).toBe(6);
    expect(chain.at(-1)).toMatchObject({ preview: "{1 field}", children: [], leftOut: 1 });
  });

  it("previews values briefly", () => {
    expect(previewOf("x".repeat(100))).toHaveLength(40);
    expect(previewOf(true)).toBe("true");
    expect(previewOf({ a: 1 })).toBe("{1 field}");
    expect(previewOf(undefined)).toBe("nothing");
  });
});

describe("sample paths of a result stored in part", () => {
  it("offers only the rows that were stored, as templates of later steps read them", () => {
    // Three rows of 600 KB: a step stores about 1 MB, so only the first is kept (its description holds the true count).
    const rows = [1, 2, 3].map((id) => ({ id, blob: "f".repeat(600_000) }));
    const stored = boundStepOutput({ content: "3 rows", data: { rows, rowCount: 3 } });
    // The editor's sample of a step is its stored output (lib/server/samples.ts reads the step's row).
    const field = sampleField("nodes.db.data", "data", stored.data);
    const rowPaths = flattenFields([field]).map((each) => each.expression).filter((expression) => /rows\[\d+\]$/.test(expression));
    expect(rowPaths).toEqual(["nodes.db.data.rows[0]"]);
    expect(field.children.find((child) => child.label === "rows")?.preview).toBe("[1 item]");
    expect(stored.truncated?.lists).toEqual([{ path: "data.rows", total: 3, stored: 1 }]);
    // What the picker offers is what a later step reads: the first row, and nothing past it.
    const scope = { inputs: {}, nodes: { db: scopeEntryOf(stored) } };
    expect(resolveTemplates("{{ nodes.db.data.rows[0].id }}", scope)).toBe(1);
    expect(resolveTemplates("{{ nodes.db.data.rows[1].id }}", scope)).toBeUndefined();
  });
});
