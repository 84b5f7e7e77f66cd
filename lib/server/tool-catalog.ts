import { McpTool } from "@/lib/mcp";
import {
  modelToolSchema,
  operationInputJsonSchema,
  settingsJsonSchema,
  type JsonSchema,
  type Tool,
  type ToolOrigin,
  type ToolRuntime,
} from "@/lib/tools";

/** One operation as the palette and the inspector show it. */
export interface CatalogOperation {
  name: string;
  title: string;
  description: string;
  readOnly: boolean;
  capabilities: string[];
  inputSchema: JsonSchema;
}

/** One tool as the palette renders it: everything a person needs, nothing secret. */
export interface CatalogTool {
  name: string;
  title: string;
  description: string;
  icon: string | null;
  /** Palette group; an MCP server's tools are in `mcp:<server>`. */
  domain: string;
  /** The MCP server a tool comes from, or null for the studio's own tools. */
  server: string | null;
  origin: ToolOrigin;
  runtime: ToolRuntime;
  capabilities: string[];
  flags: { readOnly: boolean; concurrencySafe: boolean; destructive: boolean };
  operations: CatalogOperation[];
  /** The tool's input schema as a model sees it (one object; with operations, an `operation` enum and every operation's fields), secret inputs removed. */
  inputSchema: JsonSchema;
  /** `null` = nothing to configure: the inspector shows no settings section. */
  settingsSchema: JsonSchema | null;
  rootSetting: string | null;
  pathInputs: string[];
  secretInputs: { name: string; credentialHelp: string }[];
  /** Why the tool cannot be called (an MCP tool that requires task-based execution); null when it can. The palette leaves such tools out. */
  unavailable: string | null;
}

export function catalogEntry(tool: Tool): CatalogTool {
  const operations = Object.entries(tool.operations ?? {}).map(([name, operation]) => ({
    name,
    title: operation.title,
    description: operation.description,
    readOnly: operation.readOnly,
    capabilities: [...operation.capabilities],
    // Secret inputs are listed in `secretInputs` and bound to `${NAME}`; no schema shows them.
    inputSchema: operationInputJsonSchema(tool, name, tool.secretInputs),
  }));
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    icon: tool.icon,
    domain: tool.domain,
    server: McpTool.isInstance(tool) ? tool.server : null,
    origin: tool.origin,
    runtime: tool.runtime,
    capabilities: [...new Set([...tool.capabilities, ...operations.flatMap((operation) => operation.capabilities)])],
    flags: { readOnly: tool.isReadOnly(), concurrencySafe: tool.isConcurrencySafe(), destructive: tool.isDestructive() },
    operations,
    inputSchema: modelToolSchema(tool).inputSchema,
    settingsSchema: settingsJsonSchema(tool),
    rootSetting: tool.rootSetting,
    pathInputs: [...tool.pathInputs],
    secretInputs: tool.secretInputs.map((name) => ({ name, credentialHelp: tool.credentialHelp })),
    unavailable: McpTool.isInstance(tool) ? tool.unavailable : null,
  };
}
