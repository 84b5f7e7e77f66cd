import { describe, expect, it } from "vitest";
import type { CatalogTool } from "@/lib/contracts/catalog";
import { ERROR_HANDLE } from "@/lib/contracts/execution-settings";
import type { WorkflowNode } from "@/lib/workflow/definition";
import { connectionMadeText, definitionNames, nodeAddedText } from "./announcements";

const writeFile = { name: "write_file", title: "Write a File", icon: "file", domain: "files", operations: [] } as unknown as CatalogTool;
const tools = new Map([["write_file", writeFile]]);

const nodes: WorkflowNode[] = [
  { id: "input", kind: "input", position: { x: 0, y: 0 }, fields: [] },
  { id: "write", kind: "tool", tool: "write_file", operation: null, settings: {}, arguments: {}, position: { x: 300, y: 0 } },
  { id: "check", kind: "router", label: "Check", position: { x: 600, y: 0 }, routes: [{ id: "yes", label: "yes", value: "x", operator: "is_true", compareTo: "" }] },
  { id: "done", kind: "output", label: "Answer", position: { x: 900, y: 0 }, value: "" },
];

describe("editor announcements", () => {
  it("name an added node as its card does: the tool's title, else its label or kind", () => {
    expect(nodeAddedText(nodes[1]!, tools)).toBe("Added Write a File");
    expect(nodeAddedText(nodes[0]!, tools)).toBe("Added Run inputs");
    expect(nodeAddedText(nodes[3]!, tools)).toBe("Added Answer");
  });

  it("name a connection by the cards it joins, with its route or as an error path", () => {
    const names = definitionNames({ nodes }, tools);
    expect(connectionMadeText(names, { source: "input", target: "write", sourceHandle: null })).toBe("Connected Run inputs to Write a File");
    expect(connectionMadeText(names, { source: "check", target: "done", sourceHandle: "yes" })).toBe("Connected Check to Answer (route yes)");
    expect(connectionMadeText(names, { source: "write", target: "done", sourceHandle: ERROR_HANDLE })).toBe("Connected the error path of Write a File to Answer");
  });
});
