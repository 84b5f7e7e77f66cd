import { describe, expect, it } from "vitest";
import { McpTool } from "@/lib/mcp";
import { allTools, secretsFromRecord, ToolPool, ToolResult } from "@/lib/tools";
import { WorkflowDefinitionSchema } from "@/lib/workflow/definition";
import { withMcpServersRecorded } from "./mcp-origin";
import { validateWorkflow } from "@/lib/workflow/validate";

function echoOf(server: string, name = "echo"): McpTool {
  return new McpTool({
    name,
    server,
    runtime: "local_subprocess",
    remote: { name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } }, annotations: { readOnlyHint: true } },
    call: async () => ToolResult.ok(server),
  });
}

const workflow = (node: Record<string, unknown>) =>
  WorkflowDefinitionSchema.parse({
    name: "echo",
    nodes: [{ id: "in", kind: "input", fields: [{ name: "text" }] }, { id: "call", kind: "tool", tool: "echo", arguments: { text: "{{ inputs.text }}" }, ...node }, { id: "out", kind: "output", value: "{{ nodes.call.output }}" }],
    edges: [
      { id: "e1", source: "in", target: "call" },
      { id: "e2", source: "call", target: "out" },
    ],
  });

const secrets = secretsFromRecord({});

describe("the MCP server a tool node was saved against", () => {
  it("is recorded on save for MCP tools only, and kept once recorded", () => {
    const pool = new ToolPool([...allTools(), echoOf("files")]);
    const recorded = withMcpServersRecorded(workflow({}), pool);
    expect(recorded.nodes.find((node) => node.id === "call")).toMatchObject({ mcpServer: "files" });
    const builtIn = withMcpServersRecorded(workflow({ tool: "read_file", arguments: { path: "a" } }), pool);
    expect(builtIn.nodes.find((node) => node.id === "call")).not.toHaveProperty("mcpServer");
    const kept = withMcpServersRecorded(workflow({ mcpServer: "older" }), pool);
    expect(kept.nodes.find((node) => node.id === "call")).toMatchObject({ mcpServer: "older" });
  });

  it("validates while the name still resolves to that server", async () => {
    const result = await validateWorkflow(workflow({ mcpServer: "files" }), { pool: new ToolPool([echoOf("files")]), secrets });
    expect(result.problems).toEqual([]);
  });

  it("is a problem naming the node when the name now belongs to another server", async () => {
    const result = await validateWorkflow(workflow({ mcpServer: "files" }), { pool: new ToolPool([echoOf("other")]), secrets });
    expect(result.valid).toBe(false);
    expect(result.problems).toEqual([
      expect.objectContaining({ nodeId: "call", field: "tool", message: expect.stringMatching(/saved with "echo" of the MCP server "files".*now belongs to the MCP server "other"/) }),
    ]);
  });
});
