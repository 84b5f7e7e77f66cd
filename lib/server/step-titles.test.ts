import { describe, expect, it } from "vitest";
import { ToolPool, type Tool } from "@/lib/tools";
import type { WorkflowNode } from "@/lib/workflow/definition";
import { stepTitles } from "./step-titles";

describe("stepTitles", () => {
  it("names a step by its label, else its tool's title, with the id only when two read the same", () => {
    const pool = new ToolPool([{ name: "write_file", title: "Write a File" } as Tool]);
    const nodes = [
      { id: "in", kind: "input", fields: [] },
      { id: "write_file_1", kind: "tool", tool: "write_file" },
      { id: "write_file_2", kind: "tool", tool: "write_file" },
      { id: "note", kind: "tool", tool: "write_file", label: "Write the note" },
    ] as unknown as WorkflowNode[];
    const titleOf = stepTitles(nodes, pool);
    expect(titleOf("note")).toBe("“Write the note”");
    expect(titleOf("write_file_1")).toBe("“Write a File” (write_file_1)");
    expect(titleOf("in")).toBe("“Run inputs”");
    expect(titleOf("gone")).toBe("“gone”");
  });
});
