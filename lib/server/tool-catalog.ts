import { McpTool } from "@/lib/mcp";
import {
  modelToolSchema,
  operationInputJsonSchema,
  settingsJsonSchema,
  type Tool,
} from "@/lib/tools";
import type { CatalogTool } from "@/lib/contracts/catalog";

/**
 * Entries by tool. A Tool never changes once made (an MCP server's new
 * listing makes new Tools), and building an entry converts every schema to
 * JSON Schema, so each tool's is built once, not on every page and request.
 */
const entries = new WeakMap<Tool, CatalogTool>();

/** A tool as the studio's pages and GET /api/tools present it (lib/contracts/catalog.ts). */
export function catalogEntry(tool: Tool): CatalogTool {
  let entry = entries.get(tool);
  if (!entry) {
    // Frozen: every caller shares it.
    entry = deepFreeze(buildEntry(tool));
    entries.set(tool, entry);
  }
  return entry;
}

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function buildEntry(tool: Tool): CatalogTool {
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
