import { describe, expect, it } from "vitest";
import type { CatalogTool } from "@/lib/contracts/catalog";
import { NODE_KINDS, nodeKindDefinitions, WorkflowNodeSchema, type PaletteItem } from "./definitions";
import { nodeKindEditors } from "./editor";
import { nodeKindServers } from "./server";

// The tables' types already refuse a kind missing from one of them; this also
// catches a schema added to the union by hand, and an entry filed under another kind's name.

const sorted = (kinds: Iterable<string>) => [...kinds].sort();

describe("node kinds", () => {
  const schemaKinds = WorkflowNodeSchema.options.map((schema) => schema.shape.kind.value);

  it("are the same in the schema union, the definitions, the server table and the editor table", () => {
    expect(sorted(NODE_KINDS)).toEqual(sorted(schemaKinds));
    expect(sorted(Object.keys(nodeKindDefinitions))).toEqual(sorted(schemaKinds));
    expect(sorted(Object.keys(nodeKindServers))).toEqual(sorted(schemaKinds));
    expect(sorted(Object.keys(nodeKindEditors))).toEqual(sorted(schemaKinds));
  });

  it("file each definition under its own kind", () => {
    for (const kind of NODE_KINDS) expect(nodeKindDefinitions[kind].kind).toBe(kind);
  });

  it("make, from the palette, nodes their own schema accepts as they are", () => {
    const tool = { name: "sql", title: "SQL database", operations: [{ name: "query", title: "Run a query" }] } as unknown as CatalogTool;
    const place = { idFor: (base: string) => `${base}_1`, position: { x: 0, y: 0 }, tools: new Map([["sql", tool]]) };
    for (const kind of NODE_KINDS) {
      const item = (kind === "tool" ? { kind, tool: "sql" } : { kind }) as PaletteItem;
      const created = (nodeKindDefinitions[kind].createNode as (item: PaletteItem, at: typeof place) => unknown)(item, place);
      expect(created, kind).not.toBeNull();
      expect(WorkflowNodeSchema.parse(created), kind).toEqual(created);
    }
  });
});
